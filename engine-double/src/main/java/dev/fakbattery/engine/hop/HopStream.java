package dev.fakbattery.engine.hop;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * One SSE answer through a {@link RelayHop}: read as it arrives, cut into events, each passed through the
 * {@link RelayHop.Mangle} and written on; held whole ({@link RelayHop.Mangle#buffers()}), held in windows
 * ({@link RelayHop.Mangle#holdMillis()}) or cut after upstream silence ({@link RelayHop.Mangle#idleTimeoutMillis()})
 * when the mangle says so.
 */
final class HopStream {

	private final RelayHop.Mangle mangle;

	private final InputStream in;

	private final OutputStream out;

	private final ByteArrayOutputStream held = new ByteArrayOutputStream();

	private volatile long lastByteNanos = System.nanoTime();

	private volatile boolean ended;

	private Thread reader;

	HopStream(RelayHop.Mangle mangle, InputStream in, OutputStream out) {
		this.mangle = mangle;
		this.in = in;
		this.out = out;
	}

	void pump() throws IOException {
		reader = Thread.currentThread();
		if (mangle.holdMillis() > 0) {
			Thread.ofVirtual().start(this::flushEveryWindow);
		}
		if (mangle.idleTimeoutMillis() > 0) {
			Thread.ofVirtual().start(this::cutWhenIdle);
		}
		try {
			copyEvents();
		}
		catch (IOException cut) {
			// the upstream broke or the idle watchdog closed it: the client's stream just ends
		}
		finally {
			ended = true;
			Thread.interrupted();
			synchronized (held) {
				held.writeTo(out);
				held.reset();
				out.flush();
			}
		}
	}

	private void copyEvents() throws IOException {
		ByteArrayOutputStream event = new ByteArrayOutputStream();
		byte[] buffer = new byte[8192];
		int previous = -1;
		for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
			lastByteNanos = System.nanoTime();
			int start = 0;
			for (int i = 0; i < n; i++) {
				int b = buffer[i];
				if (b == '\n' && previous == '\n') {
					event.write(buffer, start, i + 1 - start);
					start = i + 1;
					String mangled = mangle.event(event.toString(StandardCharsets.UTF_8).stripTrailing());
					if (mangled != null) {
						write((mangled + "\n\n").getBytes(StandardCharsets.UTF_8));
					}
					event.reset();
				}
				previous = b;
			}
			event.write(buffer, start, n - start);
		}
	}

	private void write(byte[] bytes) throws IOException {
		synchronized (held) {
			if (mangle.buffers() || mangle.holdMillis() > 0) {
				held.write(bytes);
			}
			else {
				out.write(bytes);
				out.flush();
			}
		}
	}

	private void flushEveryWindow() {
		while (!ended) {
			sleep(mangle.holdMillis());
			synchronized (held) {
				if (ended || mangle.buffers()) {
					continue;
				}
				try {
					held.writeTo(out);
					out.flush();
				}
				catch (IOException clientGone) {
					return;
				}
				held.reset();
			}
		}
	}

	private void cutWhenIdle() {
		while (!ended) {
			sleep(20);
			if ((System.nanoTime() - lastByteNanos) / 1_000_000 > mangle.idleTimeoutMillis()) {
				try {
					in.close();
				}
				catch (IOException ignored) {
					// closing (and waking the reader) is all the watchdog does
				}
				reader.interrupt();
				return;
			}
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}
}
