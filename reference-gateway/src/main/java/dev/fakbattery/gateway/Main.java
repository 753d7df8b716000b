package dev.fakbattery.gateway;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.concurrent.CountDownLatch;

import dev.fakbattery.gateway.policy.Policy;
import dev.fakbattery.gateway.policy.PolicyLoader;

/**
 * {@code java -jar reference-gateway/target/reference-gateway.jar --upstream URL --port N [--policy FILE]
 * [--engine vllm|sglang|llamacpp] [--record-on-wire] [--bind ADDRESS] [limits] [--log-bodies] [--server jdk|helidon|netty]}: runs the
 * {@link ReferenceGateway} until the process is stopped. On start it prints one line, {@code reference gateway
 * listening on http://127.0.0.1:PORT/v1 ...} (with the limits in force), so a caller that passed {@code --port 0}
 * learns the port; then one {@code adjudication {...}} line per chat completion that decided a call or quarantined a
 * result. A bad command line prints the error naming the flag and the usage to stderr and
 * exits 2.
 *
 * @since 0.1
 */
public final class Main {

	/** Exit status of a bad command line or a policy that does not load. */
	public static final int USAGE_ERROR = 2;

	/**
	 * Idle connections the engine client keeps ({@code jdk.httpclient.connectionPoolSize}, unless set): {@value}. The
	 * JDK client's pool is unbounded by default, hands out its oldest connection first and finds it in its expiry list
	 * by a linear scan, so after one burst of hundreds of requests every later request paid for hundreds of idle
	 * connections (a quarter of the gateway's CPU at 1,000 requests/s, see the README's cost section).
	 */
	public static final int UPSTREAM_IDLE_CONNECTIONS = 128;

	private Main() {
	}

	/** Starts the gateway and blocks until the JVM is asked to stop (SIGTERM, Ctrl-C), then closes it. */
	public static void main(String[] args) throws InterruptedException {
		if (System.getProperty("jdk.httpclient.connectionPoolSize") == null) {
			// read once, when the JDK client's pool class loads: before any client is built
			System.setProperty("jdk.httpclient.connectionPoolSize", String.valueOf(UPSTREAM_IDLE_CONNECTIONS));
		}
		ReferenceGateway gateway;
		try {
			gateway = start(args, System.out, System.err);
		}
		catch (UncheckedIOException e) {
			System.err.println("reference-gateway: " + e.getMessage());
			System.exit(1);
			return;
		}
		if (gateway == null) {
			System.exit(helpRequested(args) ? 0 : USAGE_ERROR);
			return;
		}
		CountDownLatch stopped = new CountDownLatch(1);
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			gateway.close();
			stopped.countDown();
		}, "reference-gateway-shutdown"));
		stopped.await();
	}

	/**
	 * Parses {@code args} and starts the gateway, announcing it on {@code out}.
	 *
	 * @throws UncheckedIOException when the port cannot be bound
	 * @return the started gateway, or null after printing usage (to {@code out} for {@code --help}, else the error
	 *         and usage to {@code err})
	 */
	public static ReferenceGateway start(String[] args, PrintStream out, PrintStream err) {
		MainArguments arguments;
		Policy policy;
		try {
			arguments = MainArguments.parse(args);
			if (arguments.help()) {
				out.print(MainArguments.USAGE);
				return null;
			}
			policy = arguments.policy() == null ? PolicyLoader.kitConvention() : PolicyLoader.load(arguments.policy());
		}
		catch (IllegalArgumentException e) {
			err.println("reference-gateway: " + e.getMessage());
			err.print(MainArguments.USAGE);
			return null;
		}
		ReferenceGateway.Builder builder = ReferenceGateway.builder()
				.upstream(arguments.upstream())
				.policy(policy)
				.engine(arguments.engine())
				.port(arguments.port())
				.recordOnWire(arguments.recordOnWire())
				.recordLog(line -> {
					out.println(line);
					out.flush();
				})
				.bind(arguments.bind())
				.limits(arguments.limits())
				.front(arguments.server());
		if (arguments.logBodies()) {
			builder.logBodies(err);
		}
		ReferenceGateway gateway = builder.build().start();
		out.println("reference gateway listening on " + gateway.baseUrl() + " (server " + arguments.server().id() + ", upstream "
				+ gateway.upstream() + ", engine " + arguments.engine().id() + ", policy "
				+ (arguments.policy() == null ? "kit convention" : arguments.policy())
				+ ", record " + (arguments.recordOnWire() ? "on every answer" : "on request")
				+ ", upstream timeout " + arguments.limits().upstreamTimeout().toMillis() + " ms, max body "
				+ arguments.limits().maxBodyBytes() + " B, max headers " + arguments.limits().maxHeaderBytes()
				+ " B, max event " + arguments.limits().maxEventBytes() + " B" + (arguments.logBodies() ? ", logging request bodies" : "")
				+ ")");
		out.flush();
		return gateway;
	}

	private static boolean helpRequested(String[] args) {
		try {
			return MainArguments.parse(args).help();
		}
		catch (IllegalArgumentException e) {
			return false;
		}
	}
}
