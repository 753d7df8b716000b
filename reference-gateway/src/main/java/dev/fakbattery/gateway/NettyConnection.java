package dev.fakbattery.gateway;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayDeque;
import java.util.Queue;

import com.sun.net.httpserver.HttpContext;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

/**
 * One connection of the {@link NettyServer}, on its event loop: gathers each request's head and body, then runs the
 * request's handler on the server's executor, one request at a time (a request that arrives while one runs waits, and
 * the connection stops reading until it is answered). The body is kept up to the gateway's limit plus one byte, so
 * that {@link RequestLimits} sees it is too long and answers 413; the rest of a long body is read and dropped, up to
 * {@link RequestLimits#DRAIN_BYTES}, before the handler runs, as the JDK server's handler would drain it. A head Netty
 * cannot parse gets a plain 431 (too long) or 400 and the connection is closed.
 */
final class NettyConnection extends ChannelInboundHandlerAdapter {

	private final NettyServer server;

	private final long keep;

	private final Queue<Runnable> waiting = new ArrayDeque<>();

	private HttpRequest head;

	private ByteBuf body;

	private long dropped;

	private boolean running;

	NettyConnection(NettyServer server, long maxBodyBytes) {
		this.server = server;
		this.keep = maxBodyBytes >= Integer.MAX_VALUE - 8 ? Integer.MAX_VALUE - 8 : maxBodyBytes + 1;
	}

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) {
		try {
			if (msg instanceof HttpObject http && http.decoderResult().isFailure()) {
				refuse(ctx,
						http.decoderResult().cause() instanceof TooLongFrameException
								? HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE
								: HttpResponseStatus.BAD_REQUEST);
				return;
			}
			if (msg instanceof HttpRequest request) {
				head = request;
				body = ctx.alloc().heapBuffer();
				dropped = 0;
			}
			if (msg instanceof HttpContent content && head != null) {
				gather(content.content());
				if (msg instanceof LastHttpContent || dropped > RequestLimits.DRAIN_BYTES) {
					complete(ctx);
				}
			}
		}
		finally {
			ReferenceCountUtil.release(msg);
		}
	}

	private void gather(ByteBuf content) {
		int room = (int) Math.max(0, keep - body.readableBytes());
		int taken = Math.min(room, content.readableBytes());
		body.writeBytes(content, content.readerIndex(), taken);
		dropped += content.readableBytes() - taken;
	}

	private void complete(ChannelHandlerContext ctx) {
		HttpRequest request = head;
		byte[] bytes = ByteBufUtil.getBytes(body);
		body.release();
		body = null;
		head = null;
		Runnable run = () -> run(ctx, request, bytes);
		if (running) {
			waiting.add(run);
			ctx.channel().config().setAutoRead(false);
		}
		else {
			run.run();
		}
	}

	private void run(ChannelHandlerContext ctx, HttpRequest request, byte[] bytes) {
		String path;
		try {
			path = new URI(request.uri()).getRawPath();
		}
		catch (URISyntaxException e) {
			refuse(ctx, HttpResponseStatus.BAD_REQUEST);
			return;
		}
		HttpContext context = server.context(path == null ? "" : path);
		if (context == null) {
			ctx.writeAndFlush(plain(HttpResponseStatus.NOT_FOUND));
			return;
		}
		running = true;
		NettyExchange exchange = new NettyExchange(context, ctx.channel(), request, bytes, () -> ctx.executor().execute(() -> next(ctx)));
		server.executor().execute(() -> {
			try {
				ContextServer.handle(context, exchange);
			}
			catch (Exception | Error e) {
				// as the JDK server does: a handler that throws ends its connection
				exchange.abort();
			}
			finally {
				exchange.close();
			}
		});
	}

	private void next(ChannelHandlerContext ctx) {
		running = false;
		Runnable run = waiting.poll();
		if (run != null) {
			run.run();
		}
		else if (!ctx.channel().config().isAutoRead()) {
			ctx.channel().config().setAutoRead(true);
		}
	}

	private void refuse(ChannelHandlerContext ctx, HttpResponseStatus status) {
		FullHttpResponse response = plain(status);
		response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
		ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
	}

	private static FullHttpResponse plain(HttpResponseStatus status) {
		FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.EMPTY_BUFFER);
		response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
		return response;
	}

	@Override
	public void channelInactive(ChannelHandlerContext ctx) {
		if (body != null) {
			body.release();
			body = null;
		}
		waiting.clear();
	}

	@Override
	public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
		ctx.close();
	}
}
