package dev.fakbattery.core;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.wire.Json;

import org.apiguardian.api.API;

/**
 * Writes artifacts atomically: a temp file in the same folder, flushed to disk, then moved over the
 * target. A crash mid-write leaves the previous file (or none), never a partial one; a failed write
 * throws, it is never only logged.
 *
 * @since 0.1
 */
@API(status = API.Status.INTERNAL, since = "0.6")
public final class ArtifactFiles {

	/** The final gate's verdict over a run's artifacts, written beside them. */
	public static final String FINAL_CHECK_JSON = "final-check.json";

	/** The body of a write; may throw to abandon it. */
	@FunctionalInterface
	public interface Body {
		void writeTo(OutputStream out) throws IOException;
	}

	private ArtifactFiles() {
	}

	public static Path writeJson(Path target, JsonNode document) {
		return write(target, out -> Json.MAPPER.writeValue(nonClosing(out), document));
	}

	public static Path writeString(Path target, String text) {
		return write(target, out -> out.write(text.getBytes(StandardCharsets.UTF_8)));
	}

	public static Path write(Path target, Body body) {
		Path dir = target.toAbsolutePath().getParent();
		Path temp = null;
		try {
			Files.createDirectories(dir);
			temp = Files.createTempFile(dir, "." + target.getFileName(), ".tmp");
			try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
				OutputStream out = Channels.newOutputStream(channel);
				body.writeTo(out);
				out.flush();
				channel.force(true);
			}
			move(temp, target);
			return target;
		}
		catch (IOException | RuntimeException e) {
			deleteQuietly(temp);
			throw new UncheckedIOException("could not write artifact " + target + ": " + e.getMessage(),
					e instanceof IOException io ? io : new IOException(e));
		}
	}

	private static void move(Path temp, Path target) throws IOException {
		try {
			Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
		}
		catch (AtomicMoveNotSupportedException e) {
			Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
		}
	}

	private static void deleteQuietly(Path temp) {
		if (temp != null) {
			try {
				Files.deleteIfExists(temp);
			}
			catch (IOException ignored) {
				// the original failure is what matters; a stray .tmp is ignored by every reader
			}
		}
	}

	private static OutputStream nonClosing(OutputStream out) {
		return new java.io.FilterOutputStream(out) {
			@Override
			public void write(byte[] b, int off, int len) throws IOException {
				out.write(b, off, len);
			}

			@Override
			public void close() throws IOException {
				flush();
			}
		};
	}
}
