package dev.fakbattery.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;

/**
 * The client side's limits, before any handler reads a body: a header section larger than {@code maxHeaderBytes}
 * (name, {@code ": "}, value and CRLF per header line) is answered 431, a declared {@code Content-Length} larger
 * than {@code maxBodyBytes} 413; {@link #readBody} bounds a body sent without a length. Both answers are
 * OpenAI-shaped and close the connection; up to {@value #DRAIN_BYTES} bytes of the refused body are read and
 * discarded before answering, so that a client still sending it reads the answer instead of a reset.
 */
final class RequestLimits extends Filter {

	/** The most of a refused body read and thrown away before the connection is closed: 16 MiB. */
	static final long DRAIN_BYTES = 16L * 1024 * 1024;

	private final long maxBodyBytes;

	private final int maxHeaderBytes;

	RequestLimits(long maxBodyBytes, int maxHeaderBytes) {
		this.maxBodyBytes = maxBodyBytes;
		this.maxHeaderBytes = maxHeaderBytes;
	}

	@Override
	public String description() {
		return "request limits: body " + maxBodyBytes + " bytes (413), headers " + maxHeaderBytes + " bytes (431)";
	}

	@Override
	public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
		long headerBytes = headerBytes(exchange);
		if (headerBytes > maxHeaderBytes) {
			refuse(exchange, OpenAiError.of("request headers are " + headerBytes + " bytes, over the gateway's limit of "
					+ maxHeaderBytes + " bytes", "RequestHeaderFieldsTooLargeError", null, 431));
			return;
		}
		long declared = declaredLength(exchange);
		if (declared > maxBodyBytes) {
			refuse(exchange, tooLarge(declared + " bytes"));
			return;
		}
		chain.doFilter(exchange);
	}

	/** The request body, or null after answering 413 when it is longer than the limit. */
	byte[] readBody(HttpExchange exchange) throws IOException {
		InputStream in = exchange.getRequestBody();
		int most = maxBodyBytes >= Integer.MAX_VALUE - 8 ? Integer.MAX_VALUE - 8 : (int) maxBodyBytes + 1;
		byte[] body = in.readNBytes(most);
		if (body.length <= maxBodyBytes) {
			return body;
		}
		refuse(exchange, tooLarge("more than " + maxBodyBytes + " bytes"));
		return null;
	}

	private ObjectNode tooLarge(String size) {
		return OpenAiError.of("request body is " + size + ", over the gateway's limit of " + maxBodyBytes + " bytes",
				"RequestTooLargeError", null, 413);
	}

	private static void refuse(HttpExchange exchange, ObjectNode error) throws IOException {
		drain(exchange.getRequestBody());
		exchange.getResponseHeaders().set("Connection", "close");
		try (exchange) {
			Exchanges.sendError(exchange, error);
		}
	}

	private static void drain(InputStream body) {
		try {
			long left = DRAIN_BYTES;
			byte[] sink = new byte[64 * 1024];
			int n;
			while (left > 0 && (n = body.read(sink, 0, (int) Math.min(sink.length, left))) > 0) {
				left -= n;
			}
		}
		catch (IOException ignored) {
			// the client went away: nothing left to answer
		}
	}

	private static long headerBytes(HttpExchange exchange) {
		long bytes = 0;
		for (Map.Entry<String, List<String>> header : exchange.getRequestHeaders().entrySet()) {
			for (String value : header.getValue()) {
				bytes += header.getKey().length() + 2 + value.length() + 2;
			}
		}
		return bytes;
	}

	private static long declaredLength(HttpExchange exchange) {
		String length = exchange.getRequestHeaders().getFirst("Content-Length");
		if (length == null) {
			return -1;
		}
		try {
			return Long.parseLong(length.strip());
		}
		catch (NumberFormatException e) {
			return -1;
		}
	}
}
