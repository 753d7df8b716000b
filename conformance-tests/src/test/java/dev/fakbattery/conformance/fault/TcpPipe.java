package dev.fakbattery.conformance.fault;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A byte pipe on loopback between the kit's client and a gateway, for the fault kit's self-tests: {@link Mode#FAITHFUL}
 * passes every byte and every close through, so the gateway behind it keeps its behaviour; each other mode is one
 * deliberate fault of a gateway, in front of the reference gateway.
 */
final class TcpPipe implements AutoCloseable {

	/** What the pipe does besides passing bytes. */
	enum Mode {
		/** Nothing else: a client that leaves closes the gateway connection at once. */
		FAITHFUL,
		/** A client that leaves is not passed on: the answer is read to its end and thrown away. */
		DRAINS_AFTER_CLIENT_LEAVES,
		/** Reads the gateway's answer as fast as it comes and holds it for a slow client, without bound. */
		BUFFERS_WITHOUT_BOUND,
		/**
		 * Reads the gateway's answer at most about 2 MiB/s (at most 64 KiB, then 32 ms) and holds it for a slow client,
		 * without bound: a slow leak, not a flood. (At about 1 MiB/s the upstream's bytes arrived in bursts up to 3 s apart
		 * and F05 took one target's for settled.)
		 */
		TRICKLES_WITHOUT_BOUND,
		/** When the gateway's answer mentions a truncated upstream, resets the client instead of passing it on. */
		RESETS_CLIENT_ON_TRUNCATION,
		/** A client that leaves is passed on {@link #LATE_MILLIS} ms later, as a gateway that notices it on a timer. */
		CLOSES_LATE_AFTER_CLIENT_LEAVES
	}

	/** How late {@link Mode#CLOSES_LATE_AFTER_CLIENT_LEAVES} passes a leaving client on: {@value} ms. */
	static final long LATE_MILLIS = 1000;

	private static final byte[] END = new byte[0];

	private final URI target;

	private final Mode mode;

	private final ServerSocket server;

	private final Set<Socket> open = ConcurrentHashMap.newKeySet();

	TcpPipe(URI target, Mode mode) {
		this.target = target;
		this.mode = mode;
		try {
			server = new ServerSocket();
			server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
		}
		catch (IOException e) {
			throw new java.io.UncheckedIOException(e);
		}
		Thread.ofPlatform().daemon().name("tcp-pipe-" + mode).start(this::acceptAll);
	}

	/** This pipe's URL for the target's path (for example .../v1). */
	URI url() {
		return URI.create("http://127.0.0.1:" + server.getLocalPort() + target.getPath());
	}

	@Override
	public void close() {
		try {
			server.close();
		}
		catch (IOException ignored) {
			// closing anyway
		}
		open.forEach(TcpPipe::quietly);
	}

	private void acceptAll() {
		while (!server.isClosed()) {
			try {
				Socket client = server.accept();
				Socket gateway = new Socket(target.getHost(), target.getPort());
				client.setTcpNoDelay(true);
				gateway.setTcpNoDelay(true);
				open.add(client);
				open.add(gateway);
				Thread.ofVirtual().start(() -> clientToGateway(client, gateway));
				Thread.ofVirtual().start(() -> gatewayToClient(gateway, client));
			}
			catch (IOException e) {
				return;
			}
		}
	}

	private void clientToGateway(Socket client, Socket gateway) {
		try {
			client.getInputStream().transferTo(gateway.getOutputStream());
			gateway.shutdownOutput();
		}
		catch (IOException clientLeft) {
			late();
			if (mode != Mode.DRAINS_AFTER_CLIENT_LEAVES) {
				quietly(gateway);
			}
		}
	}

	private void gatewayToClient(Socket gateway, Socket client) {
		try (gateway; client) {
			InputStream in = gateway.getInputStream();
			OutputStream out = client.getOutputStream();
			if (mode == Mode.BUFFERS_WITHOUT_BOUND || mode == Mode.TRICKLES_WITHOUT_BOUND) {
				buffered(in, out, mode == Mode.TRICKLES_WITHOUT_BOUND ? 32 : 0);
				return;
			}
			byte[] buffer = new byte[16 * 1024];
			for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
				if (mode == Mode.RESETS_CLIENT_ON_TRUNCATION
						&& new String(buffer, 0, n, StandardCharsets.ISO_8859_1).contains("truncated")) {
					client.setSoLinger(true, 0);
					return;
				}
				if (!write(out, buffer, n)) {
					if (mode == Mode.DRAINS_AFTER_CLIENT_LEAVES) {
						in.transferTo(OutputStream.nullOutputStream());
					}
					late();
					return;
				}
			}
		}
		catch (IOException e) {
			// either side went away; both are closed
		}
	}

	/** In {@link Mode#CLOSES_LATE_AFTER_CLIENT_LEAVES}, waits {@link #LATE_MILLIS} before the leaving client is passed on. */
	private void late() {
		if (mode == Mode.CLOSES_LATE_AFTER_CLIENT_LEAVES) {
			try {
				Thread.sleep(LATE_MILLIS);
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private static void buffered(InputStream in, OutputStream out, long pauseMillis) throws IOException {
		BlockingQueue<byte[]> held = new LinkedBlockingQueue<>();
		Thread writer = Thread.ofVirtual().start(() -> {
			try {
				for (byte[] bytes = held.take(); bytes != END; bytes = held.take()) {
					out.write(bytes);
					out.flush();
				}
			}
			catch (IOException | InterruptedException e) {
				// the client went away
			}
		});
		byte[] buffer = new byte[64 * 1024];
		for (int n = in.read(buffer); n >= 0 && writer.isAlive(); n = in.read(buffer)) {
			held.add(Arrays.copyOf(buffer, n));
			pause(pauseMillis);
		}
		held.add(END);
		try {
			writer.join();
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

	private static void pause(long millis) {
		if (millis > 0) {
			try {
				Thread.sleep(millis);
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private static boolean write(OutputStream out, byte[] buffer, int n) {
		try {
			out.write(buffer, 0, n);
			out.flush();
			return true;
		}
		catch (IOException clientLeft) {
			return false;
		}
	}

	private static void quietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ignored) {
			// closing anyway
		}
	}
}
