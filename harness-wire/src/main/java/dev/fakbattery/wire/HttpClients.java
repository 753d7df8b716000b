package dev.fakbattery.wire;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * The one place the battery's main code builds a JDK {@link HttpClient}: every client follows no redirect (an engine
 * or gateway that redirects is answering, not forwarding), and the few shapes the callers need are named here.
 *
 * <ul>
 * <li>{@link #http11(Duration)}: HTTP/1.1, as vLLM, SGLang, llama.cpp and the doubles speak it, with a connect
 * timeout; the form for everything that reads or relays the chat wire.</li>
 * <li>{@link #http11(Duration, Executor)}: the same on the caller's executor, where the executor is the point (the
 * load client's virtual threads; the reference gateway's {@code Runnable::run}, which runs the client's non-blocking
 * tasks on its selector thread instead of a new virtual thread each).</li>
 * <li>{@link #http11()}: HTTP/1.1 without a connect timeout, for the engine double's relay hop.</li>
 * <li>{@link #negotiating(Duration)}: the JDK's default version (HTTP/2 offered to an {@code http://} server as an
 * {@code h2c} upgrade, which an HTTP/1.1 server ignores and some answer with a bare 400), kept for the {@code /metrics}
 * scrapes that have always sent it; health checks speak HTTP/1.1.</li>
 * <li>{@link #withOwnPool(HttpClient)}: a client like another one with an empty connection pool, for
 * {@link StaleConnection}'s one retry.</li>
 * </ul>
 *
 * @since 0.3
 */
public final class HttpClients {

	private HttpClients() {
	}

	/** HTTP/1.1, no redirects, {@code connectTimeout} to open a connection. */
	public static HttpClient http11(Duration connectTimeout) {
		return builder(HttpClient.Version.HTTP_1_1).connectTimeout(connectTimeout).build();
	}

	/** HTTP/1.1, no redirects, {@code connectTimeout}, and the client's work (and its body handlers) on {@code executor}. */
	public static HttpClient http11(Duration connectTimeout, Executor executor) {
		return builder(HttpClient.Version.HTTP_1_1).connectTimeout(connectTimeout)
				.executor(Objects.requireNonNull(executor, "executor"))
				.build();
	}

	/** HTTP/1.1, no redirects, no connect timeout (the JDK then waits as long as the operating system does). */
	public static HttpClient http11() {
		return builder(HttpClient.Version.HTTP_1_1).build();
	}

	/** The JDK's default version negotiation, no redirects, {@code connectTimeout}. */
	public static HttpClient negotiating(Duration connectTimeout) {
		return HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).connectTimeout(connectTimeout).build();
	}

	/** A client like {@code client} (version, executor, connect timeout, redirects) with a connection pool of its own. */
	public static HttpClient withOwnPool(HttpClient client) {
		HttpClient.Builder builder = HttpClient.newBuilder().version(client.version()).followRedirects(client.followRedirects());
		client.executor().ifPresent(builder::executor);
		client.connectTimeout().ifPresent(builder::connectTimeout);
		return builder.build();
	}

	private static HttpClient.Builder builder(HttpClient.Version version) {
		return HttpClient.newBuilder().version(version).followRedirects(HttpClient.Redirect.NEVER);
	}
}
