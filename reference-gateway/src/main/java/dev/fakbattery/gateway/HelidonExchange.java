package dev.fakbattery.gateway;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Map;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;

import io.helidon.http.Header;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * One Helidon request as a {@link com.sun.net.httpserver.HttpExchange}, with the JDK server's contract where the
 * gateway relies on it: {@link #getResponseCode()} is -1 until {@link #sendResponseHeaders}; a length of -1 sends no
 * body, 0 a chunked body, more a body of exactly that length; a write or flush to a client that is gone throws
 * {@link IOException} (Helidon throws unchecked ones), which is how a relay learns the client left.
 */
final class HelidonExchange extends AdaptedExchange {

	private final ServerRequest request;

	private final ServerResponse response;

	private boolean closed;

	HelidonExchange(HttpContext context, ServerRequest request, ServerResponse response) {
		super(context);
		this.request = request;
		this.response = response;
	}

	@Override
	Headers readRequestHeaders() {
		Headers headers = new Headers();
		for (Header header : request.headers()) {
			for (String value : header.allValues()) {
				headers.add(header.name(), value);
			}
		}
		return headers;
	}

	@Override
	public URI getRequestURI() {
		String query = request.query().rawValue();
		return URI.create(query.isEmpty() ? request.path().rawPath() : request.path().rawPath() + "?" + query);
	}

	@Override
	public String getRequestMethod() {
		return request.prologue().method().text();
	}

	@Override
	InputStream openRequestBody() {
		return request.content().inputStream();
	}

	@Override
	void sendHead(int code, long length) throws IOException {
		try {
			response.status(code);
			for (Map.Entry<String, List<String>> header : getResponseHeaders().entrySet()) {
				response.header(header.getKey(), header.getValue().toArray(String[]::new));
			}
			if (length < 0) {
				response.send();
				out = OutputStream.nullOutputStream();
				return;
			}
			if (length > 0) {
				response.header("Content-Length", Long.toString(length));
			}
			out = new Checked(response.outputStream());
		}
		catch (RuntimeException e) {
			throw new IOException("client connection failed: " + e.getMessage(), e);
		}
	}

	/** After the handler: the response is completed (closed) if the handler left it open. */
	void finish() throws IOException {
		close();
	}

	@Override
	public void close() {
		if (closed) {
			return;
		}
		closed = true;
		try {
			if (out != null) {
				out.close();
			}
		}
		catch (IOException e) {
			// the client is gone; nothing left to tell it
		}
	}

	@Override
	public InetSocketAddress getRemoteAddress() {
		return request.remotePeer().address() instanceof InetSocketAddress inet ? inet : null;
	}

	@Override
	public InetSocketAddress getLocalAddress() {
		return request.localPeer().address() instanceof InetSocketAddress inet ? inet : null;
	}

	@Override
	public String getProtocol() {
		return request.prologue().protocol() + "/" + request.prologue().protocolVersion();
	}

	/** Helidon's response stream, its unchecked failures (client gone) turned into {@link IOException}s. */
	private static final class Checked extends FilterOutputStream {

		Checked(OutputStream out) {
			super(out);
		}

		@Override
		public void write(int b) throws IOException {
			try {
				out.write(b);
			}
			catch (RuntimeException e) {
				throw gone(e);
			}
		}

		@Override
		public void write(byte[] b, int off, int len) throws IOException {
			try {
				out.write(b, off, len);
			}
			catch (RuntimeException e) {
				throw gone(e);
			}
		}

		@Override
		public void flush() throws IOException {
			try {
				out.flush();
			}
			catch (RuntimeException e) {
				throw gone(e);
			}
		}

		@Override
		public void close() throws IOException {
			try {
				out.close();
			}
			catch (RuntimeException e) {
				throw gone(e);
			}
		}

		private static IOException gone(RuntimeException e) {
			return new IOException("client connection failed: " + e.getMessage(), e);
		}
	}
}
