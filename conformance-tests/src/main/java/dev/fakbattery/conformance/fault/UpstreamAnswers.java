package dev.fakbattery.conformance.fault;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;

/**
 * Writes the fault upstream's answer for one call: each {@link Fault} as an engine would misbehave, in the call's
 * dialect, counting the bytes the gateway takes. Stream answers are chunked HTTP/1.1, one chunk per write.
 */
final class UpstreamAnswers {

	static final int MIB = 1024 * 1024;

	private static final int PACE_MILLIS = 10;

	/** How long the upstream waits after the cut answer before it resets the connection (F03): {@value} ms. */
	static final int RESET_AFTER_MILLIS = 1000;

	private final FaultWire wire;

	private final UpstreamCall call;

	private final Duration cap;

	UpstreamAnswers(FaultWire wire, UpstreamCall call, Duration cap) {
		this.wire = wire;
		this.call = call;
		this.cap = cap;
	}

	/** A whole answer with its length. */
	static void whole(OutputStream out, int status, byte[] body) throws IOException {
		out.write(("HTTP/1.1 " + status + " X\r\nContent-Type: application/json\r\nContent-Length: " + body.length
				+ "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
		out.write(body);
		out.flush();
	}

	void answer(Socket socket, OutputStream out, int n) throws IOException {
		try {
			switch (call.fault()) {
				case TEXT, PACED -> paced(out, call.fault() == Fault.PACED ? n : 1);
				case STALL_HEADERS -> waitForGateway();
				case STALL_BODY -> stallBody(out);
				case RESET -> reset(socket, out);
				case ENDLESS_LINE ->
					endless(out, n, call.stream() ? "data: {\"x\":\"" : "{\"id\":\"endless\",\"choices\":[{\"message\":{\"content\":\"",
							filled('x', 64 * 1024));
				case ENDLESS_EVENT ->
					endless(out, n, "", repeated("data: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n", 1024));
				case FLOOD -> flood(out, n);
			}
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
		call.finish();
	}

	private void paced(OutputStream out, int chunks) throws IOException, InterruptedException {
		if (!call.stream()) {
			Thread.sleep((long) chunks * PACE_MILLIS);
			whole(out, 200, wire.textAnswer());
			return;
		}
		streamHead(out);
		chunk(out, wire.roleEvent());
		for (int i = 0; i < chunks; i++) {
			chunk(out, wire.contentEvent(" t" + i));
			if (chunks > 1) {
				Thread.sleep(PACE_MILLIS);
			}
		}
		for (String event : wire.tailEvents()) {
			chunk(out, event);
		}
		end(out);
	}

	private void stallBody(OutputStream out) throws IOException, InterruptedException {
		if (call.stream()) {
			streamHead(out);
			chunk(out, wire.roleEvent());
			chunk(out, wire.contentEvent("Before the stall"));
		}
		else {
			byte[] body = wire.textAnswer();
			wholeHead(out, body.length);
			write(out, Arrays.copyOf(body, body.length / 2));
		}
		waitForGateway();
	}

	private void reset(Socket socket, OutputStream out) throws IOException, InterruptedException {
		if (call.stream()) {
			streamHead(out);
			for (String event : wire.toolCallCut()) {
				chunk(out, event);
			}
		}
		else {
			byte[] body = wire.toolCallAnswer();
			wholeHead(out, body.length);
			write(out, Arrays.copyOf(body, body.length / 2));
		}
		// 1 s before the reset, not 50 ms nor 500: a reset discards what the gateway has not yet read, so on a loaded
		// machine a gateway that streams the cut call through had not read it in 50 ms (load average 22 with two
		// burners, 2026-12-02), nor in 500 ms with the fault self-tests beside the busy kit self-tests and two burners
		// (the same day), and F03 missed it. Not 2 s: that is the embedded gateway's upstream timeout, which then
		// answers 504 first. A correct gateway holds the cut call whatever the wait.
		Thread.sleep(RESET_AFTER_MILLIS);
		call.finish();
		socket.setSoLinger(true, 0);
		socket.close();
	}

	private void endless(OutputStream out, int mib, String start, byte[] piece) throws IOException {
		long limit = (long) mib * MIB;
		long deadline = System.nanoTime() + cap.toNanos();
		if (call.stream()) {
			streamHead(out);
			chunk(out, wire.roleEvent());
		}
		else {
			writeHead(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n");
		}
		if (!start.isEmpty()) {
			chunk(out, start.getBytes(StandardCharsets.UTF_8));
		}
		byte[] framed = framed(piece);
		while (call.written() < limit && System.nanoTime() < deadline) {
			write(out, framed);
		}
		// the cap is reached: the answer ends here without ever finishing its line or event
	}

	private void flood(OutputStream out, int mib) throws IOException {
		long limit = (long) mib * MIB;
		long deadline = System.nanoTime() + cap.toNanos();
		streamHead(out);
		chunk(out, wire.roleEvent());
		// one event, framed once: the same bytes each time (tens of MiB of them, for every target of F04 and F05)
		byte[] each = framed(wire.contentEvent(new String(filled('f', 8000), StandardCharsets.US_ASCII)).getBytes(StandardCharsets.UTF_8));
		while (call.written() < limit && System.nanoTime() < deadline) {
			write(out, each);
		}
		for (String event : wire.tailEvents()) {
			chunk(out, event);
		}
		end(out);
	}

	private void waitForGateway() throws InterruptedException {
		call.awaitClosedByGateway(cap);
	}

	private void streamHead(OutputStream out) throws IOException {
		writeHead(out, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
				+ "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n");
	}

	private void wholeHead(OutputStream out, int length) throws IOException {
		writeHead(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + length + "\r\nConnection: close\r\n\r\n");
	}

	private void writeHead(OutputStream out, String head) throws IOException {
		write(out, head.getBytes(StandardCharsets.ISO_8859_1));
	}

	private void chunk(OutputStream out, String text) throws IOException {
		chunk(out, text.getBytes(StandardCharsets.UTF_8));
	}

	private void chunk(OutputStream out, byte[] bytes) throws IOException {
		write(out, framed(bytes));
	}

	/** {@code bytes} as one HTTP/1.1 chunk: its length in hex, CRLF, the bytes, CRLF. */
	private static byte[] framed(byte[] bytes) {
		byte[] head = (Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
		byte[] framed = new byte[head.length + bytes.length + 2];
		System.arraycopy(head, 0, framed, 0, head.length);
		System.arraycopy(bytes, 0, framed, head.length, bytes.length);
		framed[framed.length - 2] = '\r';
		framed[framed.length - 1] = '\n';
		return framed;
	}

	private void end(OutputStream out) throws IOException {
		write(out, "0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
	}

	private void write(OutputStream out, byte[] bytes) throws IOException {
		out.write(bytes);
		out.flush();
		call.wrote(bytes.length);
	}

	private static byte[] filled(char c, int n) {
		byte[] bytes = new byte[n];
		Arrays.fill(bytes, (byte) c);
		return bytes;
	}

	private static byte[] repeated(String line, int times) {
		return line.repeat(times).getBytes(StandardCharsets.US_ASCII);
	}
}
