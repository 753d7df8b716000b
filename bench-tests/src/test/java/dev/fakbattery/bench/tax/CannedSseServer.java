package dev.fakbattery.bench.tax;

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

/**
 * The cheapest possible streaming chat server, for measuring the client: on loopback, one platform
 * thread per keep-alive connection, it reads each request's headers and body and answers with the
 * same pre-built bytes (a vLLM-shaped 1-token stream: role chunk, token chunk, usage chunk,
 * {@code [DONE]}). No JSON is parsed or built per request, so the client's E2EL against it is the
 * client plus loopback TCP plus a few socket calls.
 */
final class CannedSseServer implements AutoCloseable {

	private static final String BODY = event("{\"id\":\"chatcmpl-0\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
			+ "\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":0}}")
			+ event("{\"id\":\"chatcmpl-0\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},"
					+ "\"finish_reason\":\"length\"}],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":1}}")
			+ event("{\"id\":\"chatcmpl-0\",\"object\":\"chat.completion.chunk\",\"choices\":[],\"usage\":{\"prompt_tokens\":1,"
					+ "\"completion_tokens\":1,\"total_tokens\":2}}")
			+ event("[DONE]");

	private static final byte[] RESPONSE = ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: "
			+ BODY.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + BODY).getBytes(StandardCharsets.UTF_8);

	private final ServerSocket server;

	private final Thread acceptor;

	CannedSseServer() throws IOException {
		server = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
		acceptor = Thread.ofPlatform().daemon().name("canned-sse-accept").start(this::accept);
	}

	URI baseUrl() {
		return URI.create("http://127.0.0.1:" + server.getLocalPort() + "/v1");
	}

	private void accept() {
		while (!server.isClosed()) {
			try {
				Socket socket = server.accept();
				socket.setTcpNoDelay(true);
				Thread.ofPlatform().daemon().name("canned-sse-conn").start(() -> serve(socket));
			}
			catch (IOException closed) {
				return;
			}
		}
	}

	private static void serve(Socket socket) {
		try (socket) {
			InputStream in = new BufferedInputStream(socket.getInputStream());
			OutputStream out = socket.getOutputStream();
			while (true) {
				int length = readHeaders(in);
				if (length < 0) {
					return;
				}
				in.readNBytes(length);
				out.write(RESPONSE);
				out.flush();
			}
		}
		catch (IOException gone) {
			// the client closed the connection
		}
	}

	/** The request's Content-Length after reading its headers; -1 at end of stream. */
	private static int readHeaders(InputStream in) throws IOException {
		StringBuilder line = new StringBuilder();
		int length = 0;
		int b;
		while ((b = in.read()) >= 0) {
			if (b == '\n') {
				String header = line.toString().trim();
				if (header.isEmpty()) {
					return length;
				}
				if (header.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
					length = Integer.parseInt(header.substring(15).trim());
				}
				line.setLength(0);
			}
			else {
				line.append((char) b);
			}
		}
		return -1;
	}

	private static String event(String data) {
		return "data: " + data + "\n\n";
	}

	@Override
	public void close() throws IOException {
		server.close();
		acceptor.interrupt();
	}
}
