package dev.fakbattery.gateway;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Map;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * One Netty request as a {@link com.sun.net.httpserver.HttpExchange}, used by one handler thread, with the JDK server's
 * contract where the gateway relies on it: {@link #getResponseCode()} is -1 until {@link #sendResponseHeaders}; a
 * length of -1 sends no body, 0 a chunked body (its head is flushed at once), more a body of exactly that length; a
 * write or flush to a client that is gone throws {@link IOException}, which is how a relay learns the client left.
 * Writes are gathered and handed to the event loop on {@code flush} and {@code close}, so a whole non-streamed answer
 * is one hand-off; a writer waits only when the connection's outbound buffer is full.
 */
final class NettyExchange extends AdaptedExchange {

	private final Channel channel;

	private final HttpRequest request;

	private final byte[] body;

	private final Runnable done;

	private DefaultHttpResponse unsent;

	private boolean closeAfter;

	private boolean closed;

	NettyExchange(HttpContext context, Channel channel, HttpRequest request, byte[] body, Runnable done) {
		super(context);
		this.channel = channel;
		this.request = request;
		this.body = body;
		this.done = done;
	}

	@Override
	Headers readRequestHeaders() {
		Headers headers = new Headers();
		for (Map.Entry<String, String> header : request.headers()) {
			headers.add(header.getKey(), header.getValue());
		}
		return headers;
	}

	@Override
	public URI getRequestURI() {
		return URI.create(request.uri());
	}

	@Override
	public String getRequestMethod() {
		return request.method().name();
	}

	@Override
	InputStream openRequestBody() {
		return new ByteArrayInputStream(body);
	}

	@Override
	void sendHead(int code, long length) throws IOException {
		HttpHeaders headers = new DefaultHttpHeaders();
		for (Map.Entry<String, List<String>> header : getResponseHeaders().entrySet()) {
			headers.add(header.getKey(), header.getValue());
		}
		closeAfter = !HttpUtil.isKeepAlive(request) || "close".equalsIgnoreCase(getResponseHeaders().getFirst("Connection"));
		if (closeAfter) {
			headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
		}
		DefaultHttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(code), headers);
		if (length < 0) {
			headers.setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
			send(channel.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, head.status(), Unpooled.EMPTY_BUFFER,
					headers, DefaultHttpHeaders.EMPTY_HEADERS)));
			out = OutputStream.nullOutputStream();
			return;
		}
		if (length == 0) {
			HttpUtil.setTransferEncodingChunked(head, true);
			send(channel.writeAndFlush(head));
		}
		else {
			headers.set(HttpHeaderNames.CONTENT_LENGTH, length);
			unsent = head;
		}
		out = new Body();
	}

	/** Ends the connection without completing the response (a handler failed). */
	void abort() {
		closeAfter = true;
		channel.close();
	}

	@Override
	public void close() {
		if (closed) {
			return;
		}
		closed = true;
		try {
			if (out instanceof Body open) {
				open.close();
			}
			else if (status < 0 || closeAfter) {
				channel.close();
			}
		}
		catch (IOException e) {
			// the client is gone; nothing left to tell it
		}
		finally {
			done.run();
		}
	}

	private ChannelFuture send(ChannelFuture future) throws IOException {
		if (future.isDone() && !future.isSuccess() || !channel.isActive()) {
			throw gone(future.cause());
		}
		return future;
	}

	private static IOException gone(Throwable cause) {
		return new IOException("client connection failed: " + (cause == null ? "connection closed" : cause.getMessage()), cause);
	}

	@Override
	public InetSocketAddress getRemoteAddress() {
		return channel.remoteAddress() instanceof InetSocketAddress inet ? inet : null;
	}

	@Override
	public InetSocketAddress getLocalAddress() {
		return channel.localAddress() instanceof InetSocketAddress inet ? inet : null;
	}

	@Override
	public String getProtocol() {
		return request.protocolVersion().text();
	}

	/**
	 * The response body: bytes gather in a buffer; {@code flush} hands them to the event loop, {@code close} hands over
	 * the rest with the body's end (for a fixed-length body, head, body and end in one response).
	 */
	private final class Body extends OutputStream {

		private static final int HAND_OVER_BYTES = 64 * 1024;

		private ByteBuf gathered = Unpooled.buffer(0);

		private ChannelFuture last;

		private boolean ended;

		@Override
		public void write(int b) throws IOException {
			write(new byte[]{ (byte) b }, 0, 1);
		}

		@Override
		public void write(byte[] b, int off, int len) throws IOException {
			if (ended) {
				throw new IOException("response body already closed");
			}
			if (!channel.isActive()) {
				throw gone(null);
			}
			gathered.writeBytes(b, off, len);
			if (gathered.readableBytes() >= HAND_OVER_BYTES) {
				flush();
			}
		}

		@Override
		public void flush() throws IOException {
			if (ended) {
				return;
			}
			if (unsent != null) {
				channel.write(unsent);
				unsent = null;
			}
			if (gathered.isReadable()) {
				last = send(channel.writeAndFlush(new DefaultHttpContent(takeGathered())));
			}
			else {
				channel.flush();
				send(channel.newSucceededFuture());
			}
			if (last != null && !channel.isWritable()) {
				last.awaitUninterruptibly();
				send(last);
			}
		}

		@Override
		public void close() throws IOException {
			if (ended) {
				return;
			}
			ended = true;
			ChannelFuture sent;
			if (unsent != null) {
				sent = channel
						.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, unsent.status(), takeGathered(), unsent.headers(),
								DefaultHttpHeaders.EMPTY_HEADERS));
				unsent = null;
			}
			else {
				sent = channel.writeAndFlush(
						gathered.isReadable() ? new DefaultLastHttpContent(takeGathered()) : LastHttpContent.EMPTY_LAST_CONTENT);
			}
			if (closeAfter) {
				sent.addListener(ChannelFutureListener.CLOSE);
			}
			send(sent);
		}

		private ByteBuf takeGathered() {
			ByteBuf taken = gathered;
			gathered = Unpooled.buffer(0);
			return taken;
		}
	}
}
