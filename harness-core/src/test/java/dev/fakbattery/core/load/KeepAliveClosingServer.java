package dev.fakbattery.core.load;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback chat endpoint on raw sockets that behaves like llama.cpp's {@code llama-server}
 * (cpp-httplib) after a streamed response: the response says {@code Keep-Alive: timeout=5, max=100}
 * and is chunked, and then the server closes the connection.
 *
 * <ul>
 * <li>{@link Mode#CLOSE_AFTER_STREAM}: closes 2 ms after the last chunk, as cpp-httplib does once llama-server
 * has torn the request down; whether the client's next request on that connection is lost depends on who is
 * faster, as against the real server.</li>
 * <li>{@link Mode#CLOSE_ON_NEXT_REQUEST}: the same close, made deterministic: the server keeps the connection
 * until the next request arrives on it, then closes it without a byte (the client sees exactly what it sees
 * when it loses that race).</li>
 * <li>{@link Mode#NEVER_ANSWER}: reads every request and closes without a byte, on every connection: a server
 * that really fails.</li>
 * <li>{@link Mode#CUT_MID_STREAM}: sends the headers and one chunk, then closes: a stream cut short.</li>
 * </ul>
 */
final class KeepAliveClosingServer implements AutoCloseable {

	enum Mode {
		CLOSE_AFTER_STREAM, CLOSE_ON_NEXT_REQUEST, NEVER_ANSWER, CUT_MID_STREAM
	}

	private static final String CHUNK = "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\","
			+ "\"choices\":[{\"index\":0,\"delta\":{\"content\":\"%s\"},\"finish_reason\":null}]}\n\n";

	private static final String USAGE = "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\","
			+ "\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2,\"total_tokens\":5}}\n\n";

	private final ServerSocket server;

	private final Mode mode;

	private final AtomicInteger received = new AtomicInteger();

	private final AtomicInteger answered = new AtomicInteger();

	private final AtomicInteger connections = new AtomicInteger();

	KeepAliveClosingServer(Mode mode) throws IOException {
		this.mode = mode;
		this.server = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
		Thread.ofVirtual().start(this::accept);
	}

	URI baseUrl() {
		return URI.create("http://127.0.0.1:" + server.getLocalPort() + "/v1");
	}

	/** Requests read, answered or not. */
	int received() {
		return received.get();
	}

	/** Requests answered with a whole stream. */
	int answered() {
		return answered.get();
	}

	/** Connections accepted. */
	int connections() {
		return connections.get();
	}

	private void accept() {
		while (!server.isClosed()) {
			try {
				Socket socket = server.accept();
				connections.incrementAndGet();
				Thread.ofVirtual().start(() -> serve(socket));
			}
			catch (IOException e) {
				return;
			}
		}
	}

	private void serve(Socket socket) {
		try (socket) {
			InputStream in = new BufferedInputStream(socket.getInputStream());
			OutputStream out = socket.getOutputStream();
			boolean first = true;
			while (readRequest(in)) {
				received.incrementAndGet();
				if (mode == Mode.NEVER_ANSWER || (mode == Mode.CLOSE_ON_NEXT_REQUEST && !first)) {
					return;
				}
				first = false;
				out.write(("HTTP/1.1 200 OK\r\nServer: llama.cpp\r\nContent-Type: text/event-stream\r\n"
						+ "Transfer-Encoding: chunked\r\nKeep-Alive: timeout=5, max=100\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
				chunk(out, CHUNK.formatted("Hello"));
				if (mode == Mode.CUT_MID_STREAM) {
					return;
				}
				chunk(out, CHUNK.formatted(" there"));
				chunk(out, USAGE);
				chunk(out, "data: [DONE]\n\n");
				out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
				out.flush();
				answered.incrementAndGet();
				if (mode == Mode.CLOSE_AFTER_STREAM) {
					Thread.sleep(2);
					return;
				}
			}
		}
		catch (IOException e) {
			// the client went away
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

	private static void chunk(OutputStream out, String data) throws IOException {
		byte[] bytes = data.getBytes(StandardCharsets.UTF_8);
		out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
		out.write(bytes);
		out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
		out.flush();
	}

	/** Reads one request (headers and a Content-Length body); false at the end of the connection. */
	private static boolean readRequest(InputStream in) throws IOException {
		String line = line(in);
		if (line == null) {
			return false;
		}
		int length = 0;
		while (!(line = line(in)).isEmpty()) {
			if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
				length = Integer.parseInt(line.substring("content-length:".length()).trim());
			}
		}
		in.readNBytes(length);
		return true;
	}

	private static String line(InputStream in) throws IOException {
		StringBuilder text = new StringBuilder();
		for (int c = in.read(); c != -1; c = in.read()) {
			if (c == '\n') {
				return text.toString().replace("\r", "");
			}
			text.append((char) c);
		}
		return text.isEmpty() ? null : text.toString();
	}

	@Override
	public void close() throws IOException {
		server.close();
	}
}
