package dev.fakbattery.bench.tax;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.load.ChatPayload;
import dev.fakbattery.wire.JsonNumbers;
import dev.fakbattery.wire.SseEvent;
import dev.fakbattery.wire.SseLimitException;
import dev.fakbattery.wire.SseParser;
import dev.fakbattery.wire.SseReader;
import dev.fakbattery.wire.WireFormatException;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * The floor under the load client's cost on this machine: the same streams, closed loop, read by one bare Netty event
 * loop that splits each into SSE events and parses each chunk's JSON (the client's parsing, without its timing and
 * bookkeeping), with the loop's own lag probed the way the client's is (a task due every 1 ms; lag = how late it ran).
 * If this floor costs about what the client costs per event, the cost is the machine's socket reads and wake-ups, not
 * the client; if its lag stays under the limit where the client's does not, a leaner client would pay. Events are
 * every data chunk (role, tokens, finish, usage); compare per request ({@code cpu_ms_per_request}) with the client.
 */
final class NettyReadFloor {

	/** How the loop's lag is measured, for the artifact. */
	static final String METHOD = "a task scheduled on the event loop every 1 ms; lag = when it ran - when it was due";

	private static final long PROBE_NANOS = 1_000_000;

	private final URI root;

	private final byte[] body;

	private final Recorder lag = new Recorder(3);

	private final AtomicLong events = new AtomicLong();

	private final AtomicLong failed = new AtomicLong();

	private final AtomicLong requests = new AtomicLong();

	private volatile boolean running = true;

	NettyReadFloor(URI root, ChatPayload payload) {
		this.root = root;
		this.body = payload.body();
	}

	/** {@code streams} streams for {@code warmup}, then measured for {@code measured}; writes the reading into {@code node}. */
	void run(int streams, Duration warmup, Duration measured, ObjectNode node) throws InterruptedException {
		EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("fak-netty-floor", true),
				NioIoHandler.newFactory());
		try {
			probe(group.next());
			Bootstrap bootstrap = new Bootstrap().group(group)
					.channel(NioSocketChannel.class)
					.option(ChannelOption.TCP_NODELAY, true)
					.handler(new ChannelInitializer<Channel>() {
						@Override
						protected void initChannel(Channel channel) {
							channel.pipeline().addLast(new HttpClientCodec(), new Stream());
						}
					});
			for (int i = 0; i < streams; i++) {
				bootstrap.connect(root.getHost(), root.getPort());
			}
			Thread.sleep(warmup.toMillis());
			lag.reset();
			long events0 = events.get();
			long failed0 = failed.get();
			long requests0 = requests.get();
			long cpu0 = processCpuNanos();
			long t0 = System.nanoTime();
			Thread.sleep(measured.toMillis());
			double seconds = (System.nanoTime() - t0) / 1e9;
			double cpuS = (processCpuNanos() - cpu0) / 1e9;
			long n = events.get() - events0;
			long done = requests.get() - requests0;
			Histogram loopLag = lag.getIntervalHistogram();
			node.put("streams", streams);
			JsonNumbers.put(node, "seconds", seconds, 2);
			node.put("events", n);
			JsonNumbers.put(node, "token_events_per_s", n / seconds, 1);
			JsonNumbers.put(node, "cpu_cores", cpuS / seconds, 3);
			JsonNumbers.put(node, "cpu_us_per_event", n == 0 ? Double.NaN : cpuS * 1e6 / n, 1);
			node.put("requests", done);
			JsonNumbers.put(node, "cpu_ms_per_request", done == 0 ? Double.NaN : cpuS * 1e3 / done, 3);
			node.put("failed", failed.get() - failed0);
			ObjectNode lagNode = node.putObject("loop_lag");
			lagNode.put("count", loopLag.getTotalCount());
			lagNode.put("p50_us", loopLag.getValueAtPercentile(50));
			lagNode.put("p99_us", loopLag.getValueAtPercentile(99));
			lagNode.put("max_us", loopLag.getMaxValue());
			lagNode.put("within_limit",
					loopLag.getTotalCount() > 0 && loopLag.getValueAtPercentile(99) <= dev.fakbattery.core.load.ClientLag.LIMIT_P99_MICROS);
			lagNode.put("method", METHOD);
		}
		finally {
			running = false;
			group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
		}
	}

	private void probe(EventLoop loop) {
		long due = System.nanoTime() + PROBE_NANOS;
		loop.schedule(() -> {
			lag.recordValue(Math.max(0, (System.nanoTime() - due) / 1_000));
			if (running) {
				probe(loop);
			}
		}, PROBE_NANOS, TimeUnit.NANOSECONDS);
	}

	private static long processCpuNanos() {
		return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
	}

	/** One connection: a request, its stream read to the end, the next request. */
	private final class Stream extends ChannelInboundHandlerAdapter {

		private SseParser parser;

		private byte[] scratch = new byte[16 * 1024];

		private boolean ok;

		@Override
		public void channelActive(ChannelHandlerContext ctx) {
			send(ctx);
		}

		private void send(ChannelHandlerContext ctx) {
			parser = new SseParser(SseReader.DEFAULT_MAX_EVENT_BYTES);
			FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST,
					root.getPath() + "/v1/chat/completions",
					Unpooled.wrappedBuffer(body));
			request.headers()
					.set("Host", root.getHost() + ":" + root.getPort())
					.set("Content-Type", "application/json")
					.set("Accept", "text/event-stream")
					.setInt("Content-Length", body.length);
			ctx.writeAndFlush(request);
		}

		@Override
		public void channelRead(ChannelHandlerContext ctx, Object msg) {
			long now = System.nanoTime();
			try {
				if (msg instanceof HttpResponse response) {
					ok = response.status().code() == 200;
				}
				if (msg instanceof HttpContent content && ok) {
					ByteBuf buf = content.content();
					int n = buf.readableBytes();
					if (n > scratch.length) {
						scratch = new byte[n];
					}
					buf.getBytes(buf.readerIndex(), scratch, 0, n);
					parser.feed(scratch, 0, n, now, this::onEvent);
				}
				if (msg instanceof LastHttpContent) {
					(ok ? requests : failed).incrementAndGet();
					if (running) {
						send(ctx);
					}
				}
			}
			catch (SseLimitException | RuntimeException e) {
				failed.incrementAndGet();
				ctx.close();
			}
			finally {
				ReferenceCountUtil.release(msg);
			}
		}

		private void onEvent(SseEvent event, long arrived) {
			if (!event.isDone() && event.event().isEmpty() && !event.isError()) {
				try {
					event.chunk();
					events.incrementAndGet();
				}
				catch (WireFormatException e) {
					failed.incrementAndGet();
				}
			}
		}

		@Override
		public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
			failed.incrementAndGet();
			ctx.close();
		}
	}
}
