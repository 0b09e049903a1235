package io.github.appsetmapper.redis;

import io.github.appsetmapper.upstream.cache.StoredListing;
import io.github.appsetmapper.upstream.call.Headers;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A listing as bytes (inside a sealed value): every page's request key, status, header fields,
 * final URL and body, then every page's account of itself (the limit its dropped body passed, the
 * attempts it took, why it was not retried), so that a replica reading it says of a page what the
 * one that fetched it says. {@code Set-Cookie} fields are left out: a session cookie is a
 * credential, and no credential goes to Redis. A value written before the accounts were kept ends
 * after the bodies and reads with none (a replica before them refuses the longer value as it
 * refuses any it did not write: it fetches the listing itself).
 */
final class ListingCodec {
  private static final int MAX_PAGES = 100_000;

  private ListingCodec() {}

  static byte[] write(List<StoredListing.Page> pages) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(pages.size());
      for (StoredListing.Page page : pages) {
        UpstreamResponse response = page.response();
        text(out, page.key());
        out.writeInt(response.status());
        List<Headers.Header> fields = shared(response.headers());
        out.writeInt(fields.size());
        for (Headers.Header field : fields) {
          text(out, field.name());
          text(out, field.value());
        }
        text(out, response.uri() == null ? "" : response.uri().toString());
        out.writeInt(response.body().length);
        out.write(response.body());
      }
      for (StoredListing.Page page : pages) {
        UpstreamResponse response = page.response();
        out.writeLong(response.bodyLimit());
        out.writeInt(response.attempts());
        text(out, response.note() == null ? "" : response.note());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** The header fields that may be shared. */
  static List<Headers.Header> shared(Headers headers) {
    List<Headers.Header> out = new ArrayList<>();
    for (Headers.Header field : headers.fields()) {
      if (!field.name().equalsIgnoreCase("Set-Cookie")
          && !field.name().equalsIgnoreCase("Set-Cookie2")) {
        out.add(field);
      }
    }
    return out;
  }

  /** The pages written by {@link #write}; an IOException for bytes it did not write. */
  static List<StoredListing.Page> read(byte[] data) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(data));
    int count = in.readInt();
    if (count < 0 || count > MAX_PAGES) {
      throw new IOException("bad page count");
    }
    List<StoredListing.Page> pages = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String key = text(in);
      int status = in.readInt();
      int fieldCount = in.readInt();
      if (fieldCount < 0 || fieldCount > 10_000) {
        throw new IOException("bad header count");
      }
      List<Headers.Header> fields = new ArrayList<>(fieldCount);
      for (int f = 0; f < fieldCount; f++) {
        fields.add(new Headers.Header(text(in), text(in)));
      }
      String uri = text(in);
      int length = in.readInt();
      if (length < 0 || length > in.available()) {
        throw new IOException("bad body length");
      }
      byte[] body = in.readNBytes(length);
      pages.add(
          new StoredListing.Page(
              key,
              new UpstreamResponse(
                  status, Headers.of(fields), body, uri.isEmpty() ? null : URI.create(uri))));
    }
    if (in.available() != 0) {
      for (int i = 0; i < count; i++) {
        StoredListing.Page page = pages.get(i);
        long bodyLimit = in.readLong();
        int attempts = in.readInt();
        String note = text(in);
        if (bodyLimit < 0 || attempts < 1) {
          throw new IOException("bad page account");
        }
        UpstreamResponse read = page.response();
        pages.set(
            i,
            new StoredListing.Page(
                page.key(),
                new UpstreamResponse(
                    read.status(),
                    read.headers(),
                    read.body(),
                    read.uri(),
                    attempts,
                    note.isEmpty() ? null : note,
                    bodyLimit)));
      }
    }
    if (in.available() != 0) {
      throw new IOException("trailing bytes");
    }
    return pages;
  }

  static void text(DataOutputStream out, String text) throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  static String text(DataInputStream in) throws IOException {
    int length = in.readInt();
    if (length < 0 || length > in.available()) {
      throw new IOException("bad text length");
    }
    return new String(in.readNBytes(length), StandardCharsets.UTF_8);
  }
}
