package dev.fakbattery.wire;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;
import java.util.function.LongConsumer;

/**
 * A request sent on a kept-alive connection the server had already closed, which therefore got no
 * byte of a response, and its one retry on a new connection.
 *
 * <h2>Why</h2>
 * llama.cpp's {@code llama-server} (cpp-httplib) answers every streamed response with
 * {@code Keep-Alive: timeout=5, max=100} and then closes the connection right after the last chunk
 * (its content provider reports "no more data" as a cancel, so cpp-httplib drops the connection);
 * servers also close idle connections after their keep-alive timeout (5 s for cpp-httplib and uvicorn).
 * The JDK {@link HttpClient} pools the connection, because the response said keep-alive, and a request
 * sent on it before the client notices the close fails with
 * {@code IOException: HTTP/1.1 header parser received no bytes}. The JDK re-sends such a request itself
 * only for GET and HEAD ({@code jdk.httpclient.enableAllMethodRetry} widens that JVM-wide, silently, and
 * may pick another stale connection of the pool); a chat completion is a POST.
 *
 * <h2>What is done</h2>
 * Such a request is sent once more through a one-shot client, whose pool is empty, so the second attempt
 * opens a new connection; the caller records that it did, so a retry is never silent. Only that
 * signature is retried, and only once: a refused connection, a reset after bytes arrived, a stream cut
 * short, a timeout, any HTTP status, and a new connection the server closes without answering are the
 * server's answer.
 *
 * @since 0.2
 */
public final class StaleConnection {

	/** The JDK client's message when a connection ended before any byte of the response. */
	public static final String NO_BYTES = "HTTP/1.1 header parser received no bytes";

	/** Why a request was sent once more, as recorded. */
	public static final String RETRY_REASON = "sent once more on a new connection: the first attempt got no response byte ("
			+ NO_BYTES + ", a kept-alive connection the server had closed)";

	private StaleConnection() {
	}

	/**
	 * A response, from the first attempt or from the second.
	 *
	 * @param response the response
	 * @param oneShot the client of the second attempt, if there was one, shut down by {@link #close()}
	 */
	public record Sent<T>(HttpResponse<T> response, Optional<HttpClient> oneShot) implements AutoCloseable {

		/** Shuts the one-shot client down, if any: call once the body has been read or closed. */
		@Override
		public void close() {
			oneShot.ifPresent(HttpClient::shutdownNow);
		}
	}

	/** Whether {@code e} (or a cause) says the connection ended before any byte of a response arrived. */
	public static boolean unanswered(IOException e) {
		for (Throwable t = e; t != null; t = t.getCause()) {
			if (t.getMessage() != null && t.getMessage().contains(NO_BYTES)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Sends {@code request} with {@code client}, and once more on a new connection when the first attempt went
	 * {@link #unanswered}, telling {@code onRetry} the {@link System#nanoTime()} of the second send just before it;
	 * close the result once its body is read.
	 *
	 * @throws IOException the second attempt's failure, or the first's when it was not {@link #unanswered}
	 */
	public static <T> Sent<T> send(HttpClient client, HttpRequest request, HttpResponse.BodyHandler<T> handler,
			LongConsumer onRetry) throws IOException, InterruptedException {
		try {
			return new Sent<>(client.send(request, handler), Optional.empty());
		}
		catch (IOException e) {
			if (!unanswered(e)) {
				throw e;
			}
			HttpClient oneShot = HttpClients.withOwnPool(client);
			onRetry.accept(System.nanoTime());
			try {
				return new Sent<>(oneShot.send(request, handler), Optional.of(oneShot));
			}
			catch (IOException | InterruptedException | RuntimeException second) {
				oneShot.shutdownNow();
				throw second;
			}
		}
	}
}
