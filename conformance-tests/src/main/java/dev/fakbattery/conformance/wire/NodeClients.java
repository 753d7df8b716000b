package dev.fakbattery.conformance.wire;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;

import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.wire.Json;

/**
 * The JavaScript clients of the client rules C02..C04, run with {@code node}: the kit writes its scripts (class path
 * {@code dev/fakbattery/conformance/node}) into {@code kit.node.dir}, where {@code npm ci} installed the pinned clients
 * (the build does it into {@code conformance-tests/target/node-clients}), and runs one script per client once per run,
 * handing it every request to read. Where {@code node} or the installed clients are missing, {@link #missing} says
 * what and how to fix it.
 */
final class NodeClients {

	/** The Node.js major version the pinned clients run on. */
	static final int NODE_MAJOR = 20;

	/** The files the kit writes into {@code kit.node.dir}. */
	static final List<String> FILES = List.of("package.json", "package-lock.json", "kit-io.mjs", "openai-node.mjs", "vercel-ai.mjs",
			"langchain-js.mjs");

	private static final Pattern VERSION = Pattern.compile("^v(\\d+)\\.");

	private static final long TIMEOUT_SECONDS = 300;

	/** What {@code kit.node.clients} asks for. */
	enum Use {
		AUTO, REQUIRED, OFF
	}

	private final Use use;

	private final Path dir;

	private final Optional<String> missing;

	private final String node;

	private final String executable;

	NodeClients(HarnessConfig config) {
		this(config, Optional.ofNullable(System.getenv("PATH")).orElse(""));
	}

	/** The clients as {@code config} names them, {@code node} looked up on {@code path} (a PATH value). */
	NodeClients(HarnessConfig config, String path) {
		String raw = config.get(ConfigKeys.KIT_NODE_CLIENTS);
		try {
			this.use = Use.valueOf(raw.toUpperCase(Locale.ROOT));
		}
		catch (IllegalArgumentException e) {
			throw new ConfigurationException("Unable to read " + ConfigKeys.KIT_NODE_CLIENTS.name() + " value [" + raw
					+ "]: not auto, required or off. Fix: pass -D" + ConfigKeys.KIT_NODE_CLIENTS.name() + "=auto", e);
		}
		Path configured = config.get(ConfigKeys.KIT_NODE_DIR);
		this.dir = (configured.isAbsolute()
				? configured
				: config.path(HarnessConstants.ROOT_DIR).map(root -> root.resolve(configured)).orElse(configured)).toAbsolutePath()
				.normalize();
		Optional<Path> executable = onPath(path, "node");
		String version = executable.map(NodeClients::version).orElse("");
		this.executable = executable.map(Path::toString).orElse("node");
		this.node = this.executable + " " + version;
		this.missing = use == Use.OFF
				? Optional.of("Not configured: " + ConfigKeys.KIT_NODE_CLIENTS.name() + "=off")
				: executable.isEmpty()
						? Optional.of("node is not on the PATH: the JavaScript client rules need Node.js " + NODE_MAJOR
								+ " or newer (install it, e.g. apt-get install nodejs npm, then run npm ci in " + dir + ")")
						: major(version) < NODE_MAJOR
								? Optional.of("node " + version + " on the PATH is older than " + NODE_MAJOR
										+ ": the pinned clients need Node.js " + NODE_MAJOR + " or newer")
								: installed();
	}

	/** Why the clients cannot run here, when they cannot; empty when they can. */
	Optional<String> missing() {
		return missing;
	}

	/** Whether a missing client fails the rule ({@code kit.node.clients=required}) rather than skipping it. */
	boolean required() {
		return use == Use.REQUIRED;
	}

	/** The node that runs the clients, for failure messages. */
	String node() {
		return node;
	}

	/** A client's pinned version, from the installed package. */
	String version(String pkg) {
		Path manifest = dir.resolve("node_modules").resolve(pkg).resolve("package.json");
		try {
			return Json.MAPPER.readTree(Files.readString(manifest)).path("version").asText("?");
		}
		catch (IOException e) {
			return "?";
		}
	}

	/** The kit's files written into the folder (scripts always; package files where absent), then whether the clients are installed. */
	private Optional<String> installed() {
		String npmCi = "run npm ci --prefix " + dir + " (it needs the npm registry), or pass -D" + ConfigKeys.KIT_NODE_DIR.name()
				+ "=DIR of an installed copy";
		try {
			Files.createDirectories(dir);
			for (String file : FILES) {
				Path target = dir.resolve(file);
				if (file.endsWith(".mjs") || !Files.exists(target)) {
					try (InputStream in = NodeClients.class.getResourceAsStream("/dev/fakbattery/conformance/node/" + file)) {
						if (in == null) {
							return Optional.of("the kit's " + file + " is not on the class path");
						}
						byte[] bytes = in.readAllBytes();
						if (!Files.exists(target) || !java.util.Arrays.equals(Files.readAllBytes(target), bytes)) {
							Files.write(target, bytes);
						}
					}
				}
			}
		}
		catch (IOException e) {
			return Optional.of("cannot write the client scripts into " + dir + " (" + e.getMessage() + "): pass -D"
					+ ConfigKeys.KIT_NODE_DIR.name() + "=DIR of a writable folder");
		}
		List<String> absent = Stream.of("openai", "ai", "@ai-sdk/openai-compatible", "@langchain/openai", "@langchain/core")
				.filter(pkg -> !Files.isRegularFile(dir.resolve("node_modules").resolve(pkg).resolve("package.json")))
				.toList();
		return absent.isEmpty()
				? Optional.empty()
				: Optional.of("the JavaScript clients are not installed in " + dir + " (missing " + absent
						+ "; the build's npm ci did not run or could not reach the npm registry): " + npmCi);
	}

	/**
	 * Runs {@code script} once with every job ({@code key}, {@code url}, {@code request}) on its standard input and
	 * returns what it read of each, by key.
	 */
	Map<String, SdkReader.View> read(String script, List<Map<String, Object>> jobs) {
		ProcessBuilder builder = new ProcessBuilder(executable, script).directory(dir.toFile());
		builder.environment().put("NO_COLOR", "1");
		try {
			Process process = builder.start();
			CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> readAll(process.getInputStream()));
			CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()));
			try (OutputStream in = process.getOutputStream()) {
				in.write(Json.MAPPER.writeValueAsBytes(jobs));
			}
			if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				throw new IllegalStateException(script + " did not finish within " + TIMEOUT_SECONDS + " s");
			}
			String stdout = new String(out.join(), StandardCharsets.UTF_8);
			String stderr = new String(err.join(), StandardCharsets.UTF_8);
			if (process.exitValue() != 0) {
				throw new IllegalStateException("node " + script + " exited " + process.exitValue() + ": "
						+ WireChecks.abbreviate(stderr.strip()));
			}
			Map<String, SdkReader.View> readings = new LinkedHashMap<>();
			for (JsonNode reading : (ArrayNode) Json.MAPPER.readTree(stdout)) {
				readings.put(reading.path("key").asText(), view(reading));
			}
			return readings;
		}
		catch (IOException e) {
			throw new UncheckedIOException("running node " + script + " in " + dir, e);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted running node " + script, e);
		}
	}

	private static SdkReader.View view(JsonNode reading) {
		Optional<Integer> status = reading.path("status").isInt() ? Optional.of(reading.path("status").asInt()) : Optional.empty();
		if (reading.path("failure").isTextual()) {
			return new SdkReader.View(Optional.of(reading.path("failure").asText()), status, "", List.of(), Optional.empty(),
					Optional.empty());
		}
		List<Exchange.Call> calls = new ArrayList<>();
		reading.path("calls")
				.forEach(c -> calls
						.add(new Exchange.Call(c.path("id").textValue(), c.path("name").textValue(), c.path("arguments").textValue(),
								null)));
		return new SdkReader.View(Optional.empty(), status, reading.path("content").asText(""), calls,
				Optional.ofNullable(reading.path("finish").textValue()),
				reading.path("completionTokens").isIntegralNumber()
						? Optional.of(reading.path("completionTokens").asLong())
						: Optional.empty());
	}

	private static byte[] readAll(InputStream in) {
		try (in) {
			return in.readAllBytes();
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	private static Optional<Path> onPath(String path, String name) {
		return Stream.of(path.split(java.io.File.pathSeparator))
				.filter(p -> !p.isBlank())
				.map(p -> Path.of(p, name))
				.filter(Files::isExecutable)
				.findFirst();
	}

	private static String version(Path node) {
		try {
			Process process = new ProcessBuilder(node.toString(), "--version").redirectErrorStream(true).start();
			String out = new String(readAll(process.getInputStream()), StandardCharsets.UTF_8).strip();
			return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0 ? out : "(no version: " + out + ")";
		}
		catch (IOException e) {
			return "(no version: " + e.getMessage() + ")";
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return "(no version: interrupted)";
		}
	}

	private static int major(String version) {
		Matcher m = VERSION.matcher(version);
		return m.find() ? Integer.parseInt(m.group(1)) : 0;
	}
}
