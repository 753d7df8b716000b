package dev.fakbattery.wire;

import java.io.InputStream;
import java.util.List;

/** Hands out {@code bytes} in reads of the given sizes, cycling through them: a body split at chosen boundaries. */
final class ChunkedStream extends InputStream {

	private final byte[] bytes;

	private final List<Integer> sizes;

	private int position;

	private int turn;

	ChunkedStream(byte[] bytes, List<Integer> sizes) {
		this.bytes = bytes;
		this.sizes = sizes;
	}

	@Override
	public int read() {
		return position < bytes.length ? bytes[position++] & 0xff : -1;
	}

	@Override
	public int read(byte[] b, int off, int len) {
		if (position >= bytes.length) {
			return -1;
		}
		int n = Math.min(Math.min(len, sizes.get(turn++ % sizes.size())), bytes.length - position);
		System.arraycopy(bytes, position, b, off, n);
		position += n;
		return n;
	}
}
