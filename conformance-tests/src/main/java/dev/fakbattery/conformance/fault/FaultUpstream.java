package dev.fakbattery.conformance.fault;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.fakbattery.wire.Dialect;

/**
 * The fault rules' upstream: a purpose-built HTTP/1.1 server on loopback (plain sockets, because an HTTP server library cannot tell
 * when the gateway closes a connection, nor send a reset mid-body), speaking one engine dialect. A chat request's
 * body names its fault ({@code fault:NAME[:N] nonce=ID}, see {@link Fault}); the upstream answers it on its own
 * connection ({@code Connection: close}) and records, per nonce, what it wrote and when the gateway closed the
 * connection ({@link UpstreamCall}).
 */
final class FaultUpstream implements AutoCloseable {

	/** The longest any answer waits or writes: a gateway that never gives up is still cut here. */
	static final Duration CAP = Duration.ofSeconds(60);

	private static final Pattern MARKER = Pattern.compile("fault:([a-z-]+)(?::(\\d+))? nonce=([0-9a-f-]+)");

	private final FaultWire wire;

	private final ServerSocket server;

	private final Map<String, UpstreamCall> calls = new ConcurrentHashMap<>();

	private final Set<Socket> open = ConcurrentHashMap.newKeySet();

	FaultUpstream(Dialect engine, int port) {
		this.wire = new FaultWire(engine);
		try {
			this.server = new ServerSocket();
			server.setReuseAddress(true);
			server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 256);
		}
		catch (IOException e) {
			throw new UncheckedIOException("fault upstream cannot listen on loopback: " + e.getMessage(), e);
		}
		Thread.ofPlatform().daemon().name("fault-upstream-" + engine).start(this::acceptAll);
	}

	/** {@code http://127.0.0.1:PORT/v1}. */
	URI url() {
		return URI.create("http://127.0.0.1:" + server.getLocalPort() + "/v1");
	}

	Dialect engine() {
		return wire.engine();
	}

	FaultWire wire() {
		return wire;
	}

	/** The chat request the upstream received for {@code nonce}, once it arrived. */
	Optional<UpstreamCall> call(String nonce) {
		return Optional.ofNullable(calls.get(nonce));
	}

	/** Waits up to {@code timeout} for the chat request of {@code nonce}. */
	Optional<UpstreamCall> awaitCall(String nonce, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!calls.containsKey(nonce) && System.nanoTime() < deadline) {
			Thread.sleep(5);
		}
		return call(nonce);
	}

	@Override
	public void close() {
		try {
			server.close();
		}
		catch (IOException ignored) {
			// closing anyway
		}
		open.forEach(FaultUpstream::closeQuietly);
	}

	private void acceptAll() {
		while (!server.isClosed()) {
			try {
				Socket socket = server.accept();
				open.add(socket);
				Thread.ofVirtual().name("fault-upstream-connection").start(() -> serve(socket));
			}
			catch (IOException e) {
				return;
			}
		}
	}

	private void serve(Socket socket) {
		try (socket) {
			socket.setTcpNoDelay(true);
			InputStream in = socket.getInputStream();
			HttpRequestHead request = HttpRequestHead.read(in);
			if (request == null) {
				return;
			}
			OutputStream out = socket.getOutputStream();
			if (request.path().endsWith("/chat/completions") && request.method().equals("POST")) {
				chat(socket, in, out, request);
			}
			else if (request.path().endsWith("/models")) {
				UpstreamAnswers.whole(out, 200, wire.models());
			}
			else if (request.method().equals("POST")) {
				UpstreamAnswers.whole(out, 200, "{}".getBytes(StandardCharsets.UTF_8));
			}
			else {
				UpstreamAnswers.whole(out, 404, "{\"detail\":\"Not Found\"}".getBytes(StandardCharsets.UTF_8));
			}
		}
		catch (IOException e) {
			// the gateway went away; what that means is recorded on the call
		}
		finally {
			open.remove(socket);
		}
	}

	private void chat(Socket socket, InputStream in, OutputStream out, HttpRequestHead request) throws IOException {
		String body = new String(request.body(), StandardCharsets.UTF_8);
		Matcher marker = MARKER.matcher(body);
		if (!marker.find()) {
			UpstreamAnswers.whole(out, 400,
					"{\"detail\":\"fault upstream: no fault marker in the request\"}".getBytes(StandardCharsets.UTF_8));
			return;
		}
		Fault fault = Fault.parse(marker.group(1));
		int count = marker.group(2) == null ? 0 : Integer.parseInt(marker.group(2));
		UpstreamCall call = new UpstreamCall(fault, body.contains("\"stream\":true"));
		calls.put(marker.group(3), call);
		call.watchPeer(socket, in);
		try {
			new UpstreamAnswers(wire, call, CAP).answer(socket, out, count);
		}
		catch (IOException e) {
			call.writeFailed(e);
			throw e;
		}
	}

	private static void closeQuietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ignored) {
			// closing anyway
		}
	}
}
