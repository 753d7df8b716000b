package dev.fakbattery.gateway;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import com.sun.net.httpserver.HttpExchange;

/**
 * The client side of a relayed stream. The response starts (status 200, headers) with the first event, so a stream
 * that fails before it can still be answered with an error status. Each call writes its events and flushes, so
 * nothing waits in a buffer; an {@link IOException} from a write means the client is gone.
 */
final class SseSink {

	private static final byte[] DONE = "data: [DONE]\n\n".getBytes(StandardCharsets.US_ASCII);

	private final HttpExchange exchange;

	private final String contentType;

	private OutputStream out;

	SseSink(HttpExchange exchange, String contentType) {
		this.exchange = exchange;
		this.contentType = contentType == null ? "text/event-stream" : contentType;
	}

	/** Whether anything was sent to the client. */
	boolean started() {
		return out != null;
	}

	/** Sends each payload as one {@code data:} event, then flushes. */
	void send(List<String> payloads) throws IOException {
		if (payloads.isEmpty()) {
			return;
		}
		ByteArrayOutputStream frames = new ByteArrayOutputStream();
		for (String payload : payloads) {
			frame(frames, null, payload);
		}
		write(frames.toByteArray());
	}

	/** Sends {@code event: name} with its data when {@code data} is given, then {@code data: [DONE]}, and flushes. */
	void finish(String eventName, String data) throws IOException {
		ByteArrayOutputStream frames = new ByteArrayOutputStream();
		if (data != null) {
			frame(frames, eventName, data);
		}
		frames.write(DONE);
		write(frames.toByteArray());
	}

	private void write(byte[] bytes) throws IOException {
		if (out == null) {
			exchange.getResponseHeaders().set("Content-Type", contentType);
			exchange.getResponseHeaders().set("Cache-Control", "no-cache");
			exchange.sendResponseHeaders(200, 0);
			out = exchange.getResponseBody();
		}
		out.write(bytes);
		out.flush();
	}

	/** One event; data with line breaks becomes one {@code data:} line per line, as SSE requires. */
	private static void frame(ByteArrayOutputStream frames, String eventName, String data) {
		StringBuilder frame = new StringBuilder(data.length() + 16);
		if (eventName != null) {
			frame.append("event: ").append(eventName).append('\n');
		}
		for (String line : data.split("\n", -1)) {
			frame.append("data: ").append(line).append('\n');
		}
		frame.append('\n');
		frames.writeBytes(frame.toString().getBytes(StandardCharsets.UTF_8));
	}
}
