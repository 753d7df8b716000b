package dev.fakbattery.wire;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * An output stream that passes what is written to it on line by line, each line {@link SecretGuard#redact(byte[])
 * redacted} before it reaches the stream below: the log of a started engine or gateway, the test JVM's console. A line
 * is passed on when it ends; {@link #flush()} also passes on the part of an unfinished line that a secret's longest form
 * cannot reach into, keeping back twice that many bytes (never cutting a UTF-8 character) so that no secret is cut in
 * two unredacted; a line longer than {@value #LONGEST_LINE} bytes is passed on the same way. {@link #finish()} and
 * {@link #close()} pass on the rest: nothing written is lost.
 *
 * @since 0.10
 */
public final class RedactingOutputStream extends OutputStream {

	/** The longest part of a line held before it is passed on: {@value} bytes. */
	public static final int LONGEST_LINE = 64 << 10;

	private final OutputStream out;

	private final SecretGuard guard;

	private final int keep;

	private final ByteArrayOutputStream line = new ByteArrayOutputStream();

	/** A stream redacting with {@code guard} into {@code out}. */
	public RedactingOutputStream(OutputStream out, SecretGuard guard) {
		this.out = out;
		this.guard = guard;
		this.keep = Math.max(1, 2 * guard.longestForm());
	}

	@Override
	public synchronized void write(int b) throws IOException {
		line.write(b);
		if (b == '\n') {
			out.write(guard.redact(takeLine()));
		}
		else if (line.size() >= LONGEST_LINE + keep) {
			passOnAllButKept();
		}
	}

	@Override
	public synchronized void write(byte[] bytes, int offset, int length) throws IOException {
		ByteArrayOutputStream lines = null;
		int start = offset;
		for (int i = offset; i < offset + length; i++) {
			if (bytes[i] == '\n') {
				line.write(bytes, start, i + 1 - start);
				start = i + 1;
				if (lines == null) {
					lines = new ByteArrayOutputStream();
				}
				lines.writeBytes(guard.redact(takeLine()));
			}
		}
		if (lines != null) {
			lines.writeTo(out);
		}
		line.write(bytes, start, offset + length - start);
		if (line.size() >= LONGEST_LINE + keep) {
			passOnAllButKept();
		}
	}

	/** Passes on every complete line and the part of an unfinished one no secret can reach past, then flushes. */
	@Override
	public synchronized void flush() throws IOException {
		if (line.size() > keep) {
			passOnAllButKept();
		}
		out.flush();
	}

	/** Passes on everything held, the unfinished line too, redacted, and flushes; the stream stays open. */
	public synchronized void finish() throws IOException {
		out.write(guard.redact(takeLine()));
		out.flush();
	}

	/** {@link #finish()}, then closes the stream below. */
	@Override
	public synchronized void close() throws IOException {
		try (out) {
			finish();
		}
	}

	private byte[] takeLine() {
		byte[] bytes = line.toByteArray();
		line.reset();
		return bytes;
	}

	/** Redacts the unfinished line and passes on all of it but its last {@link #keep} bytes, cut between characters. */
	private void passOnAllButKept() throws IOException {
		byte[] redacted = guard.redact(takeLine());
		int cut = Math.max(0, redacted.length - keep);
		while (cut > 0 && (redacted[cut] & 0xC0) == 0x80) {
			cut--;
		}
		out.write(redacted, 0, cut);
		line.write(redacted, cut, redacted.length - cut);
	}
}
