package io.github.appsetmapper.files;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Every local file the server or the CLI reads (mappings, test files and their body files, secrets,
 * tokens), read with a size bound and decoded as strict UTF-8: a huge file, a device or a FIFO
 * ({@code /dev/zero}) is one clear error instead of a heap exhausted while reading, and a Latin-1
 * file is named with the offset of its first bad byte instead of Java's "Input length = 1".
 */
public final class BoundedFiles {
  /** Mapping files: far above any real one (the largest catalogue mapping is a few KB). */
  public static final long MAPPING_BYTES = 8L * 1024 * 1024;

  /** Test files and their body files: recorded upstream answers (at most 10 MiB each) inline. */
  public static final long TEST_BYTES = 64L * 1024 * 1024;

  /** Secret, token and webhook secret files: a PEM private key is a few KB. */
  public static final long SECRET_BYTES = 1024L * 1024;

  private BoundedFiles() {}

  /**
   * The file's bytes; an IOException when it holds more than {@code maxBytes}. Messages leave the
   * file's name to the caller, who knows what the file is for.
   */
  public static byte[] readBytes(Path file, long maxBytes) throws IOException {
    // Read through a stream, never by the size the file claims: /dev/zero and FIFOs claim 0.
    try (InputStream in = Files.newInputStream(file)) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[64 * 1024];
      long total = 0;
      int read;
      while ((read = in.read(buffer)) >= 0) {
        total += read;
        if (total > maxBytes) {
          throw new Refused("larger than " + describe(maxBytes));
        }
        out.write(buffer, 0, read);
      }
      return out.toByteArray();
    }
  }

  /**
   * The file as UTF-8 text, without a leading byte order mark (an editor on Windows writes one); an
   * IOException naming the first byte that is not UTF-8.
   */
  public static String readText(Path file, long maxBytes) throws IOException {
    byte[] bytes = readBytes(file, maxBytes);
    String text = decode(bytes);
    return text.startsWith("\uFEFF") ? text.substring(1) : text;
  }

  private static String decode(byte[] bytes) throws IOException {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    try {
      return decoder.decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      int offset = firstInvalid(bytes);
      throw new Refused(
          "not UTF-8 text (byte 0x"
              + String.format(Locale.ROOT, "%02X", bytes[offset] & 0xFF)
              + " at offset "
              + offset
              + "); save it as UTF-8");
    }
  }

  /** The offset of the first byte a strict decoder refuses. */
  private static int firstInvalid(byte[] bytes) {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length + 1);
    decoder.decode(in, out, true);
    return Math.min(in.position(), bytes.length - 1);
  }

  /**
   * The SHA-256 of the file's first {@code maxBytes + 1} bytes, in hex: what a poller compares, in
   * bounded memory and time whatever the file is (one too large is then refused by its reader).
   */
  public static String sha256(Path file, long maxBytes) throws IOException {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    try (InputStream in = Files.newInputStream(file)) {
      byte[] buffer = new byte[64 * 1024];
      long left = maxBytes + 1;
      int read;
      while (left > 0 && (read = in.read(buffer, 0, (int) Math.min(buffer.length, left))) >= 0) {
        digest.update(buffer, 0, read);
        left -= read;
      }
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  /**
   * One line saying why a file could not be read, without the file's name: Java's own messages for
   * a missing or unreadable file are only its path.
   */
  public static String why(IOException e) {
    return e instanceof Refused ? e.getMessage() : "cannot read: " + reason(e);
  }

  /** Why, in a few words: "no such file", "not UTF-8 text (...)", "larger than 8 MiB". */
  public static String reason(IOException e) {
    if (e instanceof Refused) {
      return e.getMessage();
    }
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof FileSystemException fs && fs.getReason() != null) {
      return fs.getReason();
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  /** A file read but refused: too large, or not UTF-8. */
  private static final class Refused extends IOException {
    Refused(String message) {
      super(message);
    }
  }

  private static String describe(long bytes) {
    return bytes % (1024 * 1024) == 0 ? bytes / (1024 * 1024) + " MiB" : bytes + " bytes";
  }
}
