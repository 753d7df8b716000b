package dev.fakbattery.bench.soak;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A component of the soak in its own JVM (the test's classpath, its own main class), so that its heap, threads and
 * file descriptors are its own: started, read until it announces its base URL, stopped with its process.
 */
final class ChildJvm implements AutoCloseable {

	private static final Pattern URL = Pattern.compile("(http://127\\.0\\.0\\.1:\\d+/v1)");

	private final String name;

	private final Process process;

	private final String announcement;

	private final String baseUrl;

	private ChildJvm(String name, Process process, String announcement, String baseUrl) {
		this.name = name;
		this.process = process;
		this.announcement = announcement;
		this.baseUrl = baseUrl;
	}

	/** Starts {@code mainClass} with {@code args} and waits (up to 60 s) for a line naming its base URL. */
	static ChildJvm start(String name, String heap, String mainClass, List<String> args, Path log) throws IOException {
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), heap,
				"-Dsun.net.httpserver.nodelay=true", "-cp", System.getProperty("java.class.path"), mainClass));
		command.addAll(args);
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
		CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> {
			try {
				return out.readLine();
			}
			catch (IOException e) {
				return null;
			}
		});
		String line;
		try {
			line = first.get(60, TimeUnit.SECONDS);
		}
		catch (Exception e) {
			process.destroyForcibly();
			throw new IOException(name + " did not announce itself within 60 s", e);
		}
		Matcher url = line == null ? null : URL.matcher(line);
		if (url == null || !url.find()) {
			process.destroyForcibly();
			throw new IOException(name + " did not announce a base URL: " + line);
		}
		Thread.ofVirtual().start(() -> drain(out, log));
		return new ChildJvm(name, process, line, url.group(1));
	}

	String name() {
		return name;
	}

	long pid() {
		return process.pid();
	}

	String baseUrl() {
		return baseUrl;
	}

	String announcement() {
		return announcement;
	}

	boolean alive() {
		return process.isAlive();
	}

	@Override
	public void close() {
		process.destroy();
		try {
			if (!process.waitFor(10, TimeUnit.SECONDS)) {
				process.destroyForcibly().waitFor(Duration.ofSeconds(10).toSeconds(), TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

	private static void drain(BufferedReader out, Path log) {
		try (var writer = java.nio.file.Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
			for (String line = out.readLine(); line != null; line = out.readLine()) {
				writer.write(line);
				writer.newLine();
				writer.flush();
			}
		}
		catch (IOException e) {
			// the child ended
		}
	}
}
