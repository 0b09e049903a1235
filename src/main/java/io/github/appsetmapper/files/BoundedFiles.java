package io.github.appsetmapper.files;

import io.github.appsetmapper.digest.Sha256;
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
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Every local file the server or the CLI reads (mappings, test files and their body files, secrets,
 * tokens), read with a size bound and decoded as strict UTF-8: a huge file, a device or a FIFO
 * ({@code /dev/zero}) is one clear error instead of a heap exhausted while reading, and a Latin-1
 * file is named with the offset of its first bad byte instead of Java's "Input length = 1".
 *
 * <p>Only regular files are read: the path is followed to the file it names (a Kubernetes
 * ConfigMap's or Secret's {@code ..data} symlinks keep working), which is then checked without
 * following links and opened with {@code O_NOFOLLOW}, so a FIFO, a device or a directory is refused
 * before it is opened. Every read also runs within a time bound on a small pool of its own ({@link
 * FileWaits}): a file on a hung mount holds a pool thread, never the caller past its bound.
 */
public final class BoundedFiles {
  /** Mapping files: far above any real one (the largest catalogue mapping is a few KB). */
  public static final long MAPPING_BYTES = 8L * 1024 * 1024;

  /** Test files and their body files: recorded upstream answers (at most 10 MiB each) inline. */
  public static final long TEST_BYTES = 64L * 1024 * 1024;

  /** Secret, token and webhook secret files: a PEM private key is a few KB. */
  public static final long SECRET_BYTES = 1024L * 1024;

  /** How long a read may take when the caller has no deadline of its own. */
  public static final Duration DEFAULT_WAIT = Duration.ofSeconds(30);

  private BoundedFiles() {}

  /**
   * The file's bytes; an IOException when it holds more than {@code maxBytes}. Messages leave the
   * file's name to the caller, who knows what the file is for.
   */
  public static byte[] readBytes(Path file, long maxBytes) throws IOException {
    return readBytes(file, maxBytes, DEFAULT_WAIT);
  }

  /** As {@link #readBytes(Path, long)}, refused when it takes longer than {@code within}. */
  public static byte[] readBytes(Path file, long maxBytes, Duration within) throws IOException {
    return FileWaits.within(within, () -> readNow(file, maxBytes));
  }

  /**
   * Runs {@code operation} (which may read files through {@link #readNow}, or look at their
   * attributes) within {@code within}, on the pool that bounds how many file reads may hang.
   */
  public static <T> T within(Duration within, FileOperation<T> operation) throws IOException {
    return FileWaits.within(within, operation::run);
  }

  /** A file operation that may block. */
  public interface FileOperation<T> {
    T run() throws IOException;
  }

  /**
   * The regular file {@code file} names, symlinks followed: refused when it is anything else (a
   * FIFO whose open would block until someone writes, a device, a directory).
   */
  public static Path regularFile(Path file) throws IOException {
    Path real = file.toRealPath();
    BasicFileAttributes attributes =
        Files.readAttributes(real, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (!attributes.isRegularFile()) {
      throw new Refused(
          "not a regular file ("
              + (attributes.isDirectory() ? "a directory" : "a FIFO, socket or device")
              + ")");
    }
    return real;
  }

  /**
   * The bytes of a regular file, on the calling thread: for code already running within {@link
   * #within}.
   */
  public static byte[] readNow(Path file, long maxBytes) throws IOException {
    Path real = regularFile(file);
    // Read through a stream, never by the size the file claims: /proc files claim 0.
    try (InputStream in = Files.newInputStream(real, LinkOption.NOFOLLOW_LINKS)) {
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
    return readText(file, maxBytes, DEFAULT_WAIT);
  }

  /** As {@link #readText(Path, long)}, refused when it takes longer than {@code within}. */
  public static String readText(Path file, long maxBytes, Duration within) throws IOException {
    return text(readBytes(file, maxBytes, within));
  }

  /** {@code bytes} as UTF-8 text, without a leading byte order mark. */
  public static String text(byte[] bytes) throws IOException {
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
    return FileWaits.within(DEFAULT_WAIT, () -> sha256Now(file, maxBytes));
  }

  private static String sha256Now(Path file, long maxBytes) throws IOException {
    Path real = regularFile(file);
    MessageDigest digest = Sha256.fresh();
    try (InputStream in = Files.newInputStream(real, LinkOption.NOFOLLOW_LINKS)) {
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

  /** Whether {@code e} is a refusal of the file (not regular, too large, too slow, not UTF-8). */
  public static boolean refused(IOException e) {
    return e instanceof Refused;
  }

  /** A file read but refused: not a regular file, too large, too slow, or not UTF-8. */
  static final class Refused extends IOException {
    Refused(String message) {
      super(message);
    }
  }

  private static String describe(long bytes) {
    return bytes % (1024 * 1024) == 0 ? bytes / (1024 * 1024) + " MiB" : bytes + " bytes";
  }
}
