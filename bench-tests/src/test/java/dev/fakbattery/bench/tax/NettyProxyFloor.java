package dev.fakbattery.bench.tax;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.wire.Json;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * The floor under any gateway's cost on this machine: a bare non-stream HTTP/1.1 proxy with no hand-off between
 * threads. One Netty event loop accepts the client's request, parses its JSON and writes it again (the least an
 * adjudicating gateway does), sends it to the engine on a kept-alive connection of the same loop, parses and writes the
 * answer's JSON the same way, and answers. No policy, no limits, no streaming, no adjudication: it is not a gateway,
 * only what one costs here at the least. If even this floor's added p99 does not stay within the target, no gateway
 * can show the target on this machine; if it does, the reference gateway's own machinery is what is left to cut.
 * Requests pipelined on one connection are answered in order, one at a time; an engine that cannot be reached or
 * closes before answering gets the client a 502.
 */
final class NettyProxyFloor implements AutoCloseable {

	/** What the bench records beside the floor's numbers. */
	static final String WHAT = "a bare Netty proxy, one event loop, no hand-off between threads: parses and writes each "
			+ "request's and answer's JSON, nothing else (not a gateway: the least a gateway costs on this machine)";

	private static final int MAX_BODY = 8 * 1024 * 1024;

	private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("fak-proxy-floor"),
			NioIoHandler.newFactory());

	private final Bootstrap upstream;

	private final String host;

	private final String chatPath;

	private final Channel server;

	/** Idle upstream connections; touched only on the one event loop. */
	private final Deque<Channel> idle = new ArrayDeque<>();

	NettyProxyFloor(URI upstreamBase, int port) throws InterruptedException {
		this.host = upstreamBase.getHost() + ":" + upstreamBase.getPort();
		this.chatPath = upstreamBase.getPath().replaceFirst("/$", "") + "/chat/completions";
		this.upstream = new Bootstrap().group(group)
				.channel(NioSocketChannel.class)
				.option(ChannelOption.TCP_NODELAY, true)
				.remoteAddress(upstreamBase.getHost(), upstreamBase.getPort())
				.handler(new ChannelInitializer<Channel>() {
					@Override
					protected void initChannel(Channel channel) {
						channel.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(MAX_BODY), new Answer());
					}
				});
		this.server = new ServerBootstrap().group(group)
				.channel(NioServerSocketChannel.class)
				.childOption(ChannelOption.TCP_NODELAY, true)
				.childHandler(new ChannelInitializer<Channel>() {
					@Override
					protected void initChannel(Channel channel) {
						channel.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(MAX_BODY), new Client());
					}
				})
				.bind("127.0.0.1", port)
				.sync()
				.channel();
	}

	/** {@code http://127.0.0.1:PORT/v1}. */
	String baseUrl() {
		return "http://127.0.0.1:" + ((InetSocketAddress) server.localAddress()).getPort() + "/v1";
	}

	@Override
	public void close() {
		server.close().syncUninterruptibly();
		group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
	}

	/** {@code --upstream URL [--port N]}; announces its base URL on stdout, runs until killed. */
	public static void main(String[] args) throws Exception {
		List<String> list = List.of(args);
		int at = list.indexOf("--upstream");
		if (at < 0 || at + 1 >= list.size()) {
			System.err.println("usage: NettyProxyFloor --upstream http://127.0.0.1:PORT/v1 [--port N]");
			System.exit(2);
		}
		int portAt = list.indexOf("--port");
		int port = portAt >= 0 && portAt + 1 < list.size() ? Integer.parseInt(list.get(portAt + 1)) : 0;
		NettyProxyFloor floor = new NettyProxyFloor(URI.create(list.get(at + 1)), port);
		System.out.println("netty proxy floor listening on " + floor.baseUrl() + " (upstream " + list.get(at + 1) + ")");
		Thread.currentThread().join();
	}

	private static ByteBuf rewritten(ByteBuf json) throws IOException {
		JsonNode tree;
		try (ByteBufInputStream in = new ByteBufInputStream(json)) {
			tree = Json.MAPPER.readTree((java.io.InputStream) in);
		}
		return Unpooled.wrappedBuffer(Json.MAPPER.writeValueAsBytes(tree));
	}

	/** One client connection: its requests, one at a time in arrival order. */
	private final class Client extends SimpleChannelInboundHandler<FullHttpRequest> {

		private final Deque<FullHttpRequest> waiting = new ArrayDeque<>();

		private boolean busy;

		@Override
		protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
			waiting.add(request.retain());
			if (!busy) {
				next(ctx);
			}
		}

		private void next(ChannelHandlerContext ctx) {
			FullHttpRequest request = waiting.poll();
			busy = request != null;
			if (request == null) {
				return;
			}
			boolean keepAlive = HttpUtil.isKeepAlive(request);
			ByteBuf body;
			try {
				body = rewritten(request.content());
			}
			catch (IOException e) {
				answer(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, error(HttpResponseStatus.BAD_REQUEST, "request body is not JSON"));
				return;
			}
			finally {
				request.release();
			}
			Channel reused = idle.poll();
			if (reused != null && reused.isActive()) {
				send(ctx, keepAlive, reused, body);
				return;
			}
			upstream.connect().addListener((ChannelFutureListener) connected -> {
				if (connected.isSuccess()) {
					send(ctx, keepAlive, connected.channel(), body);
				}
				else {
					body.release();
					answer(ctx, keepAlive, HttpResponseStatus.BAD_GATEWAY, error(HttpResponseStatus.BAD_GATEWAY, "upstream unreachable"));
				}
			});
		}

		private void send(ChannelHandlerContext ctx, boolean keepAlive, Channel channel, ByteBuf body) {
			channel.pipeline().get(Answer.class).pending = (status, json) -> answer(ctx, keepAlive, status, json);
			FullHttpRequest forward = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, chatPath, body);
			forward.headers()
					.set(HttpHeaderNames.HOST, host)
					.set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
					.setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
			channel.writeAndFlush(forward);
		}

		private void answer(ChannelHandlerContext ctx, boolean keepAlive, HttpResponseStatus status, ByteBuf json) {
			FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, json);
			response.headers()
					.set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
					.setInt(HttpHeaderNames.CONTENT_LENGTH, json.readableBytes());
			HttpUtil.setKeepAlive(response, keepAlive);
			if (keepAlive) {
				ctx.writeAndFlush(response);
				next(ctx);
			}
			else {
				ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
			}
		}

		@Override
		public void channelInactive(ChannelHandlerContext ctx) {
			waiting.forEach(FullHttpRequest::release);
			waiting.clear();
		}

		@Override
		public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
			ctx.close();
		}
	}

	/** Where an upstream answer goes. */
	private interface Pending {

		void done(HttpResponseStatus status, ByteBuf json);
	}

	/** One upstream connection: the answer to the request it carries, then back to the idle ones. */
	private final class Answer extends SimpleChannelInboundHandler<FullHttpResponse> {

		private Pending pending;

		@Override
		protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse response) {
			Pending to = take();
			HttpResponseStatus status = response.status();
			ByteBuf json;
			try {
				json = rewritten(response.content());
			}
			catch (IOException e) {
				status = HttpResponseStatus.BAD_GATEWAY;
				json = error(status, "upstream answer is not JSON");
			}
			if (HttpUtil.isKeepAlive(response)) {
				idle.push(ctx.channel());
			}
			else {
				ctx.close();
			}
			if (to != null) {
				to.done(status, json);
			}
			else {
				json.release();
			}
		}

		@Override
		public void channelInactive(ChannelHandlerContext ctx) {
			idle.remove(ctx.channel());
			Pending to = take();
			if (to != null) {
				to.done(HttpResponseStatus.BAD_GATEWAY, error(HttpResponseStatus.BAD_GATEWAY, "upstream closed before answering"));
			}
		}

		@Override
		public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
			ctx.close();
		}

		private Pending take() {
			Pending to = pending;
			pending = null;
			return to;
		}
	}

	private static ByteBuf error(HttpResponseStatus status, String message) {
		return Unpooled.wrappedBuffer(("{\"error\":{\"message\":\"" + message + "\",\"code\":" + status.code() + "}}")
				.getBytes(StandardCharsets.UTF_8));
	}
}
