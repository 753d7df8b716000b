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
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.SecretGuard;

import org.apiguardian.api.API;

/**
 * Writes artifacts atomically: a temp file in the same folder, flushed to disk, then moved over the
 * target. A crash mid-write leaves the previous file (or none), never a partial one; a failed write
 * throws, it is never only logged.
 *
 * <p>Every write passes the {@link SecretGuard} before its move: a file that would hold a secret in any form is
 * not written (the temp file is deleted) and the write fails naming the file, never the secret. Writers without a
 * run's configuration use the JVM's guard ({@link RunSecrets#jvm()}).
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
		return writeJson(target, document, RunSecrets.jvm());
	}

	/** {@link #writeJson(Path, JsonNode)} checked by {@code guard}. */
	public static Path writeJson(Path target, JsonNode document, SecretGuard guard) {
		return write(target, out -> Json.MAPPER.writeValue(nonClosing(out), document), guard);
	}

	public static Path writeString(Path target, String text) {
		return writeString(target, text, RunSecrets.jvm());
	}

	/** {@link #writeString(Path, String)} checked by {@code guard}. */
	public static Path writeString(Path target, String text, SecretGuard guard) {
		return write(target, out -> out.write(text.getBytes(StandardCharsets.UTF_8)), guard);
	}

	public static Path write(Path target, Body body) {
		return write(target, body, RunSecrets.jvm());
	}

	/**
	 * Writes {@code body} to {@code target} atomically once {@code guard} finds no secret in it.
	 *
	 * @throws IllegalStateException {@code artifact TARGET would contain ...; refused to write it}, nothing written
	 * @throws UncheckedIOException when the write fails
	 */
	public static Path write(Path target, Body body, SecretGuard guard) {
		Path dir = target.toAbsolutePath().getParent();
		Path temp = null;
		Optional<String> leak;
		try {
			Files.createDirectories(dir);
			temp = Files.createTempFile(dir, "." + target.getFileName(), ".tmp");
			try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
				OutputStream out = Channels.newOutputStream(channel);
				body.writeTo(out);
				out.flush();
				channel.force(true);
			}
			leak = guard.find(temp);
			if (leak.isEmpty()) {
				move(temp, target);
				return target;
			}
		}
		catch (IOException | RuntimeException e) {
			deleteQuietly(temp);
			throw new UncheckedIOException("could not write artifact " + target + ": " + e.getMessage(),
					e instanceof IOException io ? io : new IOException(e));
		}
		deleteQuietly(temp);
		throw SecretGuard.refusal("artifact " + target, leak.get());
	}

	/**
	 * Copies {@code source} over {@code target} once the JVM's guard finds no secret in it (an archive, a results split).
	 *
	 * @throws IllegalStateException {@code copy of SOURCE to TARGET would contain ...; refused to write it}, nothing copied
	 * @throws IOException when the copy fails
	 */
	public static Path copy(Path source, Path target) throws IOException {
		RunSecrets.jvm().requireAbsent(source, "copy of " + source + " to " + target);
		return Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
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
