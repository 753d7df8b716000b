package dev.fakbattery.conformance.fault;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** An HTTP/1.1 chunked body, decoded as it arrives; a connection that ends inside it is an {@link EOFException}. */
final class ChunkedBody extends InputStream {

	private final InputStream in;

	private long left;

	private boolean done;

	ChunkedBody(InputStream in) {
		this.in = in;
	}

	@Override
	public int read() throws IOException {
		byte[] one = new byte[1];
		int n = read(one, 0, 1);
		return n < 0 ? -1 : one[0] & 0xff;
	}

	@Override
	public int read(byte[] b, int off, int len) throws IOException {
		if (done) {
			return -1;
		}
		if (left == 0) {
			String size = line();
			left = Long.parseLong(size.split(";")[0].strip(), 16);
			if (left == 0) {
				done = true;
				line();
				return -1;
			}
		}
		int n = in.read(b, off, (int) Math.min(len, left));
		if (n < 0) {
			throw new EOFException("connection closed inside a chunk");
		}
		left -= n;
		if (left == 0) {
			line();
		}
		return n;
	}

	private String line() throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		for (int b = in.read(); b != '\n'; b = in.read()) {
			if (b < 0) {
				throw new EOFException("connection closed between chunks");
			}
			if (b != '\r') {
				line.write(b);
			}
		}
		return line.toString(StandardCharsets.ISO_8859_1);
	}

	@Override
	public void close() throws IOException {
		in.close();
	}
}
