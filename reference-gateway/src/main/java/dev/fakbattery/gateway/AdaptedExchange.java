package dev.fakbattery.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.Map;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;

/**
 * What a non-JDK front's {@link HttpExchange} keeps the same way whichever server carries it: its context, response
 * headers and attributes, the streams, and the JDK server's contract: {@link #getResponseCode()} is -1 until
 * {@link #sendResponseHeaders}, which sends once (a second call throws), and the response body exists only after it.
 * A front reads its request headers ({@link #readRequestHeaders}), opens its request body ({@link #openRequestBody})
 * and sends its head ({@link #sendHead}).
 */
abstract class AdaptedExchange extends HttpExchange {

	private final HttpContext context;

	private final Headers responseHeaders = new Headers();

	private final Map<String, Object> attributes = new HashMap<>();

	private Headers requestHeaders;

	/** The request body, once asked for or set. */
	InputStream in;

	/** The response body, once the headers are sent. */
	OutputStream out;

	/** The response code; -1 until the headers are sent. */
	int status = -1;

	AdaptedExchange(HttpContext context) {
		this.context = context;
	}

	@Override
	public final Headers getResponseHeaders() {
		return responseHeaders;
	}

	@Override
	public final HttpContext getHttpContext() {
		return context;
	}

	@Override
	public final Headers getRequestHeaders() {
		if (requestHeaders == null) {
			requestHeaders = readRequestHeaders();
		}
		return requestHeaders;
	}

	/** The server's request headers as {@code com.sun.net.httpserver} {@link Headers}, read once. */
	abstract Headers readRequestHeaders();

	@Override
	public final InputStream getRequestBody() {
		if (in == null) {
			in = openRequestBody();
		}
		return in;
	}

	/** The server's request body stream, opened once, on the first {@link #getRequestBody()}. */
	abstract InputStream openRequestBody();

	/** Sends the head once: a second call throws, as the JDK server's does; then {@link #sendHead} does the sending. */
	@Override
	public final void sendResponseHeaders(int code, long length) throws IOException {
		if (status >= 0) {
			throw new IOException("headers already sent");
		}
		status = code;
		sendHead(code, length);
	}

	/**
	 * Sends the status and the response headers, and sets {@link #out}: for {@code length} -1 no body, 0 a chunked body,
	 * more a body of exactly that length.
	 */
	abstract void sendHead(int code, long length) throws IOException;

	@Override
	public final OutputStream getResponseBody() {
		if (out == null) {
			throw new IllegalStateException("response headers not sent yet");
		}
		return out;
	}

	@Override
	public final int getResponseCode() {
		return status;
	}

	@Override
	public final Object getAttribute(String name) {
		return attributes.get(name);
	}

	@Override
	public final void setAttribute(String name, Object value) {
		attributes.put(name, value);
	}

	@Override
	public final void setStreams(InputStream i, OutputStream o) {
		if (i != null) {
			in = i;
		}
		if (o != null) {
			out = o;
		}
	}

	@Override
	public final HttpPrincipal getPrincipal() {
		return null;
	}
}
