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

import dev.fakbattery.core.process.ChildJava;

/**
 * A component of the soak in its own JVM (the test's classpath, its own main class), so that its heap, threads and
 * file descriptors are its own: started, read until a line announces its base URL (lines before it, a library's
 * start-up log, are kept for the error), stopped with its process. The soak
 * and the gateway cost bench ({@code bench.tax.GatewayCostBench}) start the engine double and the reference gateway
 * this way.
 */
public final class ChildJvm implements AutoCloseable {

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
		return start(name, List.of(heap), mainClass, args, log);
	}

	/** The same, with these JVM options (heap, GC, ...) before the class path. */
	public static ChildJvm start(String name, List<String> jvmOptions, String mainClass, List<String> args, Path log) throws IOException {
		return start(name, List.of(), jvmOptions, mainClass, args, log);
	}

	/** The same, the command run under {@code prefix} (for example {@code taskset -c 1}). */
	public static ChildJvm start(String name, List<String> prefix, List<String> jvmOptions, String mainClass, List<String> args, Path log)
			throws IOException {
		List<String> command = new ArrayList<>(prefix);
		command.add(ChildJava.executable());
		command.addAll(jvmOptions);
		command.addAll(List.of("-Dsun.net.httpserver.nodelay=true", "-cp", System.getProperty("java.class.path"), mainClass));
		command.addAll(args);
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
		List<String> before = new java.util.concurrent.CopyOnWriteArrayList<>();
		CompletableFuture<String> announced = CompletableFuture.supplyAsync(() -> {
			try {
				for (String line = out.readLine(); line != null; line = out.readLine()) {
					if (URL.matcher(line).find()) {
						return line;
					}
					before.add(line);
				}
				return null;
			}
			catch (IOException e) {
				return null;
			}
		});
		String line;
		try {
			line = announced.get(60, TimeUnit.SECONDS);
		}
		catch (Exception e) {
			process.destroyForcibly();
			throw new IOException(name + " did not announce itself within 60 s: " + before, e);
		}
		if (line == null) {
			process.destroyForcibly();
			throw new IOException(name + " did not announce a base URL: " + before);
		}
		Matcher url = URL.matcher(line);
		url.find();
		Thread.ofVirtual().start(() -> drain(out, log));
		return new ChildJvm(name, process, line, url.group(1));
	}

	public String name() {
		return name;
	}

	public long pid() {
		return process.pid();
	}

	public String baseUrl() {
		return baseUrl;
	}

	public String announcement() {
		return announcement;
	}

	public boolean alive() {
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
