package dev.fakbattery.core;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The child JVM of {@link ArtifactKillTests}: writes version after version of a 1 MB JSON artifact, slowly (2 KB a
 * piece, flushed, so that each write spans about 100 ms), printing {@code wrote N} after each. {@code atomic} writes
 * through {@link ArtifactFiles}; {@code naive} straight into the target, as a broken writer would.
 */
public final class ArtifactWriterChild {

	static final int ITEMS = 500;

	private ArtifactWriterChild() {
	}

	public static void main(String[] args) throws Exception {
		Path target = Path.of(args[0]);
		boolean atomic = args[1].equals("atomic");
		for (int version = 1; version < 10_000; version++) {
			int v = version;
			if (atomic) {
				ArtifactFiles.write(target, out -> document(out, v));
			}
			else {
				try (OutputStream out = Files.newOutputStream(target)) {
					document(out, v);
				}
			}
			System.out.println("wrote " + version);
			System.out.flush();
		}
	}

	/** {@code {"version":N,"items":["x...",...],"end":N}}, a piece at a time. */
	static void document(OutputStream out, int version) throws IOException {
		out.write(("{\"version\":" + version + ",\"items\":[").getBytes(StandardCharsets.UTF_8));
		String item = "\"" + "x".repeat(2000) + "\"";
		for (int i = 0; i < ITEMS; i++) {
			out.write(((i == 0 ? "" : ",") + item).getBytes(StandardCharsets.UTF_8));
			out.flush();
			if (i % 10 == 0) {
				try {
					Thread.sleep(2);
				}
				catch (InterruptedException e) {
					Thread.currentThread().interrupt();
					throw new IOException("interrupted", e);
				}
			}
		}
		out.write(("],\"end\":" + version + "}").getBytes(StandardCharsets.UTF_8));
	}
}
