package dev.fakbattery.core.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;

/**
 * Another HTTP server that takes a port the harness allocated for a child, between the allocation and the child's
 * start, and answers every request with 200 (a health check would pass on it): the server a start must never judge.
 * It counts what it was sent.
 */
public final class Squatter implements AutoCloseable {

	private final HttpServer server;

	private final AtomicInteger requests = new AtomicInteger();

	private Squatter(HttpServer server) {
		this.server = server;
	}

	/** Takes {@code port} on 127.0.0.1. */
	public static Squatter on(int port) {
		try {
			HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
			Squatter squatter = new Squatter(server);
			server.createContext("/", exchange -> {
				squatter.requests.incrementAndGet();
				byte[] body = "{\"object\":\"list\",\"data\":[{\"id\":\"squatter\",\"owned_by\":\"vllm\"}]}"
						.getBytes(StandardCharsets.UTF_8);
				exchange.sendResponseHeaders(200, body.length);
				exchange.getResponseBody().write(body);
				exchange.close();
			});
			server.start();
			return squatter;
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	public int port() {
		return server.getAddress().getPort();
	}

	/** How many requests reached it. */
	public int requests() {
		return requests.get();
	}

	/**
	 * A command that starts the JDK's own static file server ({@code jwebserver}) on {@code {port}} serving
	 * {@code dir}: a real server process that fails with "Address already in use" on a taken port.
	 */
	public static String fileServer(Path dir) {
		Path bin = Path.of(System.getProperty("java.home"), "bin", "jwebserver");
		return "'" + bin + "' -b 127.0.0.1 -p {port} -d '" + dir.toAbsolutePath() + "'";
	}

	@Override
	public void close() {
		server.stop(0);
	}
}
