package dev.fakbattery.conformance.wire;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;

import dev.fakbattery.conformance.rules.KitFlags;
import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.wire.Json;

/**
 * The JavaScript clients of the client rules C02..C04, run with {@code node}: the kit writes its scripts (class path
 * {@code dev/fakbattery/conformance/node}) into {@code kit.node.dir}, where {@code npm ci} installed the pinned clients
 * (the build does it into {@code conformance-tests/target/node-clients}), and hands one script per client every request
 * of a run to read, in a process kept for the next run. Where {@code node} or the installed clients are missing, {@link #missing} says
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

	/** The jobs as one line: the script reads a batch a line. */
	private static final ObjectWriter ONE_LINE = Json.MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT);

	/** Idle client processes by node executable, folder and script, shared by the kit runs of this JVM. */
	private static final ConcurrentMap<List<String>, Deque<NodeProcess>> IDLE = new ConcurrentHashMap<>();

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
					+ "]: not auto, required or off. Fix: pass " + KitFlags.set(config, ConfigKeys.KIT_NODE_CLIENTS.name(), "auto"), e);
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
								: installed(config, path);
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

	/**
	 * The kit's files written into the folder (scripts always; package files where absent), then whether the clients are
	 * installed; the standalone jar ({@code kit.launcher=standalone}) installs them itself with {@code npm ci} from the
	 * lockfile it carries where {@code npm} is on {@code path}.
	 */
	private Optional<String> installed(HarnessConfig config, String path) {
		String npmCi = "run npm ci --prefix " + dir + " (it needs the npm registry), or pass "
				+ KitFlags.set(config, ConfigKeys.KIT_NODE_DIR.name(), "DIR") + " of an installed copy";
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
			return Optional.of("cannot write the client scripts into " + dir + " (" + e.getMessage() + "): pass "
					+ KitFlags.set(config, ConfigKeys.KIT_NODE_DIR.name(), "DIR") + " of a writable folder");
		}
		List<String> absent = absent();
		Optional<Path> npm = onPath(path, "npm");
		if (!absent.isEmpty() && npm.isPresent() && KitFlags.STANDALONE.equals(config.get(ConfigKeys.KIT_LAUNCHER))) {
			Optional<String> failed = npmCi(npm.get());
			if (failed.isPresent()) {
				return failed;
			}
			absent = absent();
		}
		return absent.isEmpty()
				? Optional.empty()
				: Optional.of("the JavaScript clients are not installed in " + dir + " (missing " + absent
						+ "; the build's npm ci did not run or could not reach the npm registry): " + npmCi);
	}

	/** The clients not installed in the folder. */
	private List<String> absent() {
		return Stream.of("openai", "ai", "@ai-sdk/openai-compatible", "@langchain/openai", "@langchain/core")
				.filter(pkg -> !Files.isRegularFile(dir.resolve("node_modules").resolve(pkg).resolve("package.json")))
				.toList();
	}

	/** Runs {@code npm ci} in the folder from the kit's lockfile, at most {@value #NPM_CI_SECONDS} s; why it failed, if it did. */
	private Optional<String> npmCi(Path npm) {
		System.out.println("kit: installing the JavaScript clients into " + dir + " (npm ci, from the kit's package-lock.json)");
		try {
			Process process = new ProcessBuilder(npm.toString(), "ci", "--prefix", dir.toString(), "--no-audit", "--no-fund",
					"--ignore-scripts").redirectErrorStream(true).redirectOutput(dir.resolve("npm-ci.log").toFile()).start();
			if (!process.waitFor(NPM_CI_SECONDS, java.util.concurrent.TimeUnit.SECONDS)) {
				process.destroyForcibly();
				return Optional.of(
						"npm ci --prefix " + dir + " did not finish within " + NPM_CI_SECONDS + " s (its log: " + dir.resolve("npm-ci.log")
								+ ")");
			}
			return process.exitValue() == 0
					? Optional.empty()
					: Optional.of("npm ci --prefix " + dir + " exited " + process.exitValue() + " (it needs the npm registry; its log: "
							+ dir.resolve("npm-ci.log") + ")");
		}
		catch (IOException e) {
			return Optional.of("npm ci --prefix " + dir + " could not start: " + e.getMessage());
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return Optional.of("interrupted while npm ci ran in " + dir);
		}
	}

	/** The longest the standalone jar waits for {@code npm ci}: {@value} s. */
	static final int NPM_CI_SECONDS = 300;

	/**
	 * Hands {@code script} every job ({@code key}, {@code url}, {@code request}) as one line and returns what it read of
	 * each, by key. The script's process is kept for the next batch (an idle one is taken, or a new one started, so kit
	 * runs in parallel each have one): starting node and loading a client cost about five times what reading a kit run's
	 * answers does (2026-12-04: 324 readings took 5.0 to 9.1 CPU s a client in 9 processes, 0.9 to 1.5 in one). A process
	 * ends when this JVM does (its standard input closes) or when a batch fails.
	 */
	Map<String, SdkReader.View> read(String script, List<Map<String, Object>> jobs) {
		Deque<NodeProcess> idle = IDLE.computeIfAbsent(List.of(executable, dir.toString(), script), key -> new ConcurrentLinkedDeque<>());
		NodeProcess process = idle.pollFirst();
		try {
			if (process == null || !process.alive()) {
				process = NodeProcess.start(executable, dir, script);
			}
			Map<String, SdkReader.View> readings = new LinkedHashMap<>();
			try {
				for (JsonNode reading : (ArrayNode) Json.MAPPER.readTree(process.exchange(ONE_LINE.writeValueAsString(jobs)))) {
					readings.put(reading.path("key").asText(), view(reading));
				}
			}
			catch (IOException | RuntimeException e) {
				process.stop();
				throw e;
			}
			idle.offerFirst(process);
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

	/** One client script's node process: a line of jobs in, a line of readings out; its standard error kept in part for failures. */
	private static final class NodeProcess {

		private final String script;

		private final Process process;

		private final Writer in;

		/** Its standard output's lines; empty once it ended. */
		private final BlockingQueue<Optional<String>> lines = new LinkedBlockingQueue<>();

		private final StringBuilder errorTail = new StringBuilder();

		private Thread errorReader;

		private NodeProcess(String script, Process process) {
			this.script = script;
			this.process = process;
			this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
		}

		static NodeProcess start(String executable, Path dir, String script) throws IOException {
			ProcessBuilder builder = new ProcessBuilder(executable, script).directory(dir.toFile());
			builder.environment().put("NO_COLOR", "1");
			NodeProcess node = new NodeProcess(script, builder.start());
			Thread.ofPlatform().daemon().name("node " + script + " out").start(node::readLines);
			node.errorReader = Thread.ofPlatform().daemon().name("node " + script + " err").start(node::keepErrorTail);
			return node;
		}

		boolean alive() {
			return process.isAlive();
		}

		void stop() {
			process.destroyForcibly();
		}

		/** Writes {@code line}, returns the line the script answers; a script that ends or takes too long fails, stopped. */
		String exchange(String line) throws IOException, InterruptedException {
			try {
				in.write(line);
				in.write('\n');
				in.flush();
			}
			catch (IOException e) {
				throw failed("could not be handed its jobs (" + e.getMessage() + ")");
			}
			Optional<String> answer = lines.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
			if (answer == null) {
				stop();
				throw new IllegalStateException(script + " did not finish within " + TIMEOUT_SECONDS + " s");
			}
			return answer.orElseThrow(() -> failed("ended"));
		}

		private IllegalStateException failed(String what) {
			boolean exited = false;
			try {
				exited = process.waitFor(5, TimeUnit.SECONDS);
				stop();
				errorReader.join(2000);
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				stop();
			}
			String stderr;
			synchronized (errorTail) {
				stderr = errorTail.toString().strip();
			}
			return new IllegalStateException("node " + script + " " + what + (exited ? ", exited " + process.exitValue() : "") + ": "
					+ WireChecks.abbreviate(stderr));
		}

		private void readLines() {
			try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
				for (String line = out.readLine(); line != null; line = out.readLine()) {
					lines.add(Optional.of(line));
				}
			}
			catch (IOException e) {
				// the process was stopped: its end below says so
			}
			lines.add(Optional.empty());
		}

		private void keepErrorTail() {
			try (BufferedReader err = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
				for (String line = err.readLine(); line != null; line = err.readLine()) {
					synchronized (errorTail) {
						errorTail.append(line).append('\n');
						if (errorTail.length() > 8192) {
							errorTail.delete(0, errorTail.length() - 4096);
						}
					}
				}
			}
			catch (IOException e) {
				// the process was stopped
			}
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
