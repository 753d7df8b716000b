package dev.fakbattery.conformance.fault;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.fakbattery.wire.SseEvent;
import dev.fakbattery.wire.SseReader;

/**
 * The fault rules' client: plain HTTP/1.1 over a socket, so it can send exactly the headers and body it means to, read
 * one byte a second, and leave with a reset. Every exchange ends by its deadline: past it the socket is closed and the
 * answer says so.
 */
final class FaultClient implements AutoCloseable {

	private final Socket socket;

	private final InputStream raw;

	private final long started = System.nanoTime();

	private volatile boolean deadlinePassed;

	private int status;

	private final Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

	private InputStream body;

	private FaultClient(Socket socket) throws IOException {
		this.socket = socket;
		this.raw = new BufferedInputStream(socket.getInputStream(), 1);
	}

	/**
	 * Connects to {@code base}'s host, sends {@code POST path} with {@code headers} and {@code body} (chunked when
	 * asked, on its own thread so an early answer is read) and reads the status line and headers.
	 *
	 * @param receiveBuffer the socket's receive buffer in bytes, 0 for the system's
	 */
	static FaultClient post(URI base, String path, Map<String, String> headers, byte[] body, boolean chunked,
			int receiveBuffer, Duration deadline) throws IOException {
		Socket socket = new Socket();
		if (receiveBuffer > 0) {
			socket.setReceiveBufferSize(receiveBuffer);
		}
		socket.connect(new InetSocketAddress(base.getHost(), base.getPort()), 5000);
		FaultClient client = new FaultClient(socket);
		client.closeAt(deadline);
		Map<String, String> all = new LinkedHashMap<>();
		all.put("Host", base.getHost() + ":" + base.getPort());
		all.put("Content-Type", "application/json");
		all.put(chunked ? "Transfer-Encoding" : "Content-Length", chunked ? "chunked" : Integer.toString(body.length));
		all.putAll(headers);
		StringBuilder head = new StringBuilder("POST " + base.getPath() + path + " HTTP/1.1\r\n");
		all.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
		head.append("\r\n");
		OutputStream out = socket.getOutputStream();
		Thread.ofVirtual().name("fault-client-send").start(() -> send(out, head.toString(), body, chunked));
		try {
			client.readHead();
		}
		catch (IOException e) {
			client.close();
			throw client.deadlinePassed ? new IOException("no answer by the deadline", e) : e;
		}
		return client;
	}

	/** Bytes of the header section as the gateway counts them: name, ": ", value and CRLF per header line. */
	static long headerBytes(URI base, Map<String, String> headers, int bodyLength) {
		long bytes = ("Host: " + base.getHost() + ":" + base.getPort() + "\r\n").length() + "Content-Type: application/json\r\n".length()
				+ ("Content-Length: " + bodyLength + "\r\n").length();
		for (Map.Entry<String, String> header : headers.entrySet()) {
			bytes += header.getKey().length() + 2 + header.getValue().length() + 2;
		}
		return bytes;
	}

	int status() {
		return status;
	}

	String header(String name) {
		return headers.get(name);
	}

	/** The body as it arrives, de-chunked. */
	InputStream body() {
		return body;
	}

	/** The raw socket input after the headers (chunk framing included): for a client that reads a byte a second. */
	InputStream raw() {
		return raw;
	}

	/** Reads the whole body; an exchange that broke or passed its deadline is recorded as such, not thrown. */
	Answer readAll() {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		String broke = null;
		try {
			body.transferTo(bytes);
		}
		catch (IOException e) {
			broke = deadlinePassed ? "no complete answer by the deadline" : "the connection broke: " + e;
		}
		return new Answer(status, header("Content-Type"), bytes.toString(StandardCharsets.UTF_8), broke, millis());
	}

	/** Milliseconds since the request was sent. */
	long millis() {
		return (System.nanoTime() - started) / 1_000_000;
	}

	boolean deadlinePassed() {
		return deadlinePassed;
	}

	/** Leaves at once: a TCP reset when data is still unread, as a client that quits does. */
	void leave() {
		try {
			socket.setSoLinger(true, 0);
			socket.close();
		}
		catch (IOException ignored) {
			// gone anyway
		}
	}

	@Override
	public void close() {
		try {
			socket.close();
		}
		catch (IOException ignored) {
			// closing anyway
		}
	}

	private void closeAt(Duration deadline) {
		Thread.ofVirtual().name("fault-client-deadline").start(() -> {
			try {
				Thread.sleep(deadline.toMillis());
				if (!socket.isClosed()) {
					deadlinePassed = true;
					socket.close();
				}
			}
			catch (InterruptedException | IOException e) {
				// nothing left to close
			}
		});
	}

	private void readHead() throws IOException {
		String statusLine = line();
		if (statusLine == null) {
			throw new IOException(deadlinePassed ? "no answer by the deadline" : "the gateway closed the connection without an answer");
		}
		status = Integer.parseInt(statusLine.split(" ")[1]);
		for (String line = line(); line != null && !line.isEmpty(); line = line()) {
			int colon = line.indexOf(':');
			headers.put(line.substring(0, colon).strip(), line.substring(colon + 1).strip());
		}
		if ("chunked".equalsIgnoreCase(headers.getOrDefault("Transfer-Encoding", ""))) {
			body = new ChunkedBody(raw);
		}
		else if (headers.containsKey("Content-Length")) {
			body = new BoundedBody(raw, Long.parseLong(headers.get("Content-Length")));
		}
		else {
			body = raw;
		}
	}

	private String line() throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int b;
		while ((b = raw.read()) >= 0) {
			if (b == '\n') {
				return line.toString(StandardCharsets.ISO_8859_1).replace("\r", "");
			}
			line.write(b);
		}
		return null;
	}

	private static void send(OutputStream out, String head, byte[] body, boolean chunked) {
		try {
			out.write(head.getBytes(StandardCharsets.ISO_8859_1));
			if (chunked) {
				for (int off = 0; off < body.length; off += 64 * 1024) {
					int n = Math.min(64 * 1024, body.length - off);
					out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
					out.write(body, off, n);
					out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
				}
				out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
			}
			else {
				out.write(body);
			}
			out.flush();
		}
		catch (IOException e) {
			// the gateway answered and closed before taking the whole body: its answer is what counts
		}
	}

	/** A whole answer: status, content type, body text, and why it broke (null when it ended cleanly). */
	record Answer(int status, String contentType, String body, String broke, long millis) {

		/** The body read as SSE events (a truncated last event dropped). */
		List<SseEvent> events() {
			List<SseEvent> events = new ArrayList<>();
			try (SseReader reader = new SseReader(new java.io.ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)))) {
				for (var event = reader.next(); event.isPresent(); event = reader.next()) {
					events.add(event.get());
				}
			}
			catch (IOException e) {
				throw new IllegalStateException("an in-memory SSE body cannot fail to read", e);
			}
			return events;
		}
	}

	/** A body of known length. */
	private static final class BoundedBody extends InputStream {

		private final InputStream in;

		private long left;

		BoundedBody(InputStream in, long length) {
			this.in = in;
			this.left = length;
		}

		@Override
		public int read() throws IOException {
			byte[] one = new byte[1];
			int n = read(one, 0, 1);
			return n < 0 ? -1 : one[0] & 0xff;
		}

		@Override
		public int read(byte[] b, int off, int len) throws IOException {
			if (left == 0) {
				return -1;
			}
			int n = in.read(b, off, (int) Math.min(len, left));
			if (n < 0) {
				throw new java.io.EOFException("connection closed " + left + " bytes before the end of the body");
			}
			left -= n;
			return n;
		}
	}
}
