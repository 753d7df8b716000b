package dev.fakbattery.gateway;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerExpectContinueHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;

/**
 * The gateway's {@code com.sun.net.httpserver} handlers and filters served by Netty 4.2 ({@link HttpFront#NETTY}):
 * event loops (one per core) parse HTTP with Netty's codec and gather each request's body ({@link NettyConnection});
 * the handler then runs on the executor the gateway sets (a virtual thread per request), on a {@link NettyExchange}.
 * Netty's own header limit is set above the gateway's so that an oversized header section still reaches
 * {@link RequestLimits} and gets the gateway's OpenAI-shaped 431; the body limit is the gateway's own, read from the
 * body as the JDK server's would be.
 */
final class NettyServer extends ContextServer {

	private final InetSocketAddress requested;

	private final EventLoopGroup loops;

	private final ChannelGroup connections = new DefaultChannelGroup("fak-gateway-connections", GlobalEventExecutor.INSTANCE);

	private final Channel listening;

	private volatile Executor executor = task -> Thread.ofVirtual().name("fak-gateway-request").start(task);

	/** Binds {@code address} at once, as the JDK's {@code HttpServer.create} does; requests wait for their contexts. */
	NettyServer(InetSocketAddress address, int backlog, int maxHeaderBytes, long maxBodyBytes) throws IOException {
		this.requested = Objects.requireNonNull(address, "address");
		int headroom = (int) Math.min(Integer.MAX_VALUE - 1, 2L * maxHeaderBytes + 16 * 1024);
		HttpDecoderConfig decoding = new HttpDecoderConfig().setMaxInitialLineLength(headroom)
				.setMaxHeaderSize(headroom)
				.setMaxChunkSize(64 * 1024);
		int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
		loops = new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory("fak-gateway-netty", true), NioIoHandler.newFactory());
		ServerBootstrap bootstrap = new ServerBootstrap().group(loops)
				.channel(NioServerSocketChannel.class)
				.option(ChannelOption.SO_BACKLOG, backlog > 0 ? backlog : 128)
				.childOption(ChannelOption.TCP_NODELAY, true)
				.childHandler(new ChannelInitializer<SocketChannel>() {
					@Override
					protected void initChannel(SocketChannel channel) {
						connections.add(channel);
						channel.pipeline()
								.addLast(new HttpServerCodec(decoding), new HttpServerExpectContinueHandler(),
										new NettyConnection(NettyServer.this, maxBodyBytes));
					}
				});
		try {
			listening = bootstrap.bind(address).syncUninterruptibly().channel();
		}
		catch (RuntimeException e) {
			loops.shutdownGracefully(0, 1, TimeUnit.SECONDS);
			throw new IOException(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage(), e);
		}
	}

	/** Runs a request's handler. */
	Executor executor() {
		return executor;
	}

	@Override
	public void bind(InetSocketAddress address, int backlog) {
		throw new UnsupportedOperationException("the Netty front binds the address it was created with");
	}

	/** Nothing left to do: the server listens from its creation. */
	@Override
	public void start() {
		// bound and serving since the constructor
	}

	/** The executor the handlers run on; by default a new virtual thread per request. */
	@Override
	public void setExecutor(Executor executor) {
		if (executor != null) {
			this.executor = executor;
		}
	}

	@Override
	public Executor getExecutor() {
		return executor;
	}

	@Override
	public void stop(int delay) {
		listening.close().syncUninterruptibly();
		connections.close().awaitUninterruptibly(Math.max(0, delay), TimeUnit.SECONDS);
		loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
	}

	@Override
	public InetSocketAddress getAddress() {
		return new InetSocketAddress(requested.getAddress(), ((InetSocketAddress) listening.localAddress()).getPort());
	}
}
