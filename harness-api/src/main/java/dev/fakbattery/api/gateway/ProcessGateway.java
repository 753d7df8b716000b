package dev.fakbattery.api.gateway;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import dev.fakbattery.wire.spi.GatewayUnderTest;

/**
 * A gateway the harness starts from the {@code gateway.cmd} template, with {@code {port}},
 * {@code {upstream}} and {@code {model}} filled in; its output goes to a log file, it is
 * health-checked ({@code /healthz}, else {@code /v1/models}) until a deadline, and closing it
 * stops it and its children.
 */
final class ProcessGateway implements GatewayUnderTest {

	private final Process process;
	private final URI baseUrl;
	private final String command;
	private final Path log;
	private final boolean declaresRecord;

	private ProcessGateway(Process process, URI baseUrl, String command, Path log, boolean declaresRecord) {
		this.process = process;
		this.baseUrl = baseUrl;
		this.command = command;
		this.log = log;
		this.declaresRecord = declaresRecord;
	}

	static String render(String template, int port, URI upstream, String model) {
		return template.replace("{port}", String.valueOf(port)).replace("{upstream}", upstream.toString())
			.replace("{model}", model);
	}

	static ProcessGateway start(String template, URI upstream, String model, Path logDir, Duration timeout, boolean declaresRecord) {
		int port = freePort();
		String command = render(template, port, upstream, model);
		try {
			Files.createDirectories(logDir);
			Path log = logDir.resolve("gateway-" + port + ".log");
			Process process = new ProcessBuilder(List.of("/bin/sh", "-c", command)).redirectErrorStream(true)
				.redirectOutput(log.toFile()).start();
			ProcessGateway gateway = new ProcessGateway(process, URI.create("http://127.0.0.1:" + port + "/v1"), command, log, declaresRecord);
			gateway.awaitHealthy(timeout);
			return gateway;
		}
		catch (IOException e) {
			throw new UncheckedIOException("gateway.cmd could not start [" + command + "]: " + e.getMessage(), e);
		}
	}

	private void awaitHealthy(Duration timeout) {
		HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
		String root = baseUrl.toString().substring(0, baseUrl.toString().length() - "/v1".length());
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			if (!process.isAlive()) {
				throw failure("exited with status " + process.exitValue() + " before answering its health check");
			}
			for (String probe : List.of(root + "/healthz", baseUrl + "/models")) {
				if (answers(client, probe)) {
					return;
				}
			}
			sleep(200);
		}
		close();
		throw failure("did not answer " + root + "/healthz or " + baseUrl + "/models within " + timeout.toSeconds() + " s");
	}

	private static boolean answers(HttpClient client, String url) {
		try {
			HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).GET().build();
			return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
		}
		catch (IOException e) {
			return false;
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	private IllegalStateException failure(String what) {
		return new IllegalStateException("gateway.cmd [" + command + "] " + what + "; log " + log + ":\n" + tail());
	}

	private String tail() {
		try {
			List<String> lines = Files.readAllLines(log);
			return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
		}
		catch (IOException e) {
			return "(log unreadable: " + e.getMessage() + ")";
		}
	}

	@Override
	public URI baseUrl() {
		return baseUrl;
	}

	@Override
	public String description() {
		return "gateway.cmd [" + command + "] (log " + log + ")";
	}

	@Override
	public boolean declaresAdjudicationRecord() {
		return declaresRecord;
	}

	@Override
	public Optional<Path> log() {
		return Optional.of(log);
	}

	@Override
	public void close() {
		process.descendants().forEach(ProcessHandle::destroy);
		process.destroy();
		try {
			if (!process.waitFor(5, TimeUnit.SECONDS)) {
				process.descendants().forEach(ProcessHandle::destroyForcibly);
				process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException e) {
			throw new UncheckedIOException("no free loopback port: " + e.getMessage(), e);
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}
}
