package dev.fakbattery.bench.llamacpp;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.ArtifactFiles;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.wire.Json;

/**
 * Prepares the real engine of the {@code llamacpp} profile in one folder ({@code target/llamacpp}):
 * <ol>
 * <li>{@code llama-server}: {@code -Dllamacpp.server}, else {@code llama-server} on {@code PATH}, else the one
 * {@code tools/llamacpp/build-llama-server.sh} builds into its cache (once; it fails naming every missing tool),
 * linked as {@code llama-server} in the folder;</li>
 * <li>the llama.cpp source: {@code -Dllamacpp.source}, else the script's {@code --source-only} (npm and git);</li>
 * <li>{@code tiny-random-llama.gguf}: {@link TinyLlama} with seed 1, the source's qwen2 vocabulary and Qwen2.5 chat
 * template, {@code <|im_end|>} as EOS;</li>
 * <li>{@code slots/} for {@code --slot-save-path}, and {@code llamacpp.json}: the server, its version, the source, the
 * model's size and SHA-256.</li>
 * </ol>
 * The profile's {@code engine.cmd} then runs the linked server on the model.
 *
 * @since 0.2
 */
public final class LlamaCppSetup {

	/** The model file written in the folder. */
	public static final String MODEL_FILE = "tiny-random-llama.gguf";

	static final String VOCAB = "models/ggml-vocab-qwen2.gguf";

	static final String TEMPLATE = "models/templates/Qwen-Qwen2.5-7B-Instruct.jinja";

	private final Path out;

	private final Path script;

	private final String path;

	private LlamaCppSetup(Path out, Path script, String path) {
		this.out = out;
		this.script = script;
		this.path = path;
	}

	/** {@code LlamaCppSetup OUT_DIR BUILD_SCRIPT}; {@code -Dllamacpp.server}, {@code -Dllamacpp.source} as described. */
	public static void main(String[] args) throws IOException {
		if (args.length != 2) {
			throw new IllegalArgumentException("usage: LlamaCppSetup OUT_DIR tools/llamacpp/build-llama-server.sh");
		}
		ObjectNode done = prepare(Path.of(args[0]), Path.of(args[1]),
				Optional.ofNullable(System.getProperty(HarnessConstants.LLAMACPP_SERVER)),
				Optional.ofNullable(System.getProperty(HarnessConstants.LLAMACPP_SOURCE)), System.getenv().getOrDefault("PATH", ""));
		System.out.println("[llamacpp] " + done.path("server").asText() + " (" + done.path("server_version").asText() + ") will serve "
				+ done.path("model").path("file").asText() + " (" + done.path("model").path("bytes").asLong() + " bytes, sha256 "
				+ done.path("model").path("sha256").asText() + ")");
	}

	/**
	 * Does the four steps; {@code path} is the {@code PATH} searched for {@code llama-server}.
	 *
	 * @return what {@code llamacpp.json} says
	 * @throws IllegalStateException naming what is missing and the fix
	 */
	public static ObjectNode prepare(Path out, Path script, Optional<String> server, Optional<String> source, String path)
			throws IOException {
		return new LlamaCppSetup(out.toAbsolutePath(), script.toAbsolutePath(), path).run(server, source);
	}

	private ObjectNode run(Optional<String> server, Optional<String> source) throws IOException {
		Files.createDirectories(out.resolve("slots"));
		Path binary = server(server);
		Path sources = source.map(Path::of).orElseGet(() -> Path.of(script("--source-only")));
		for (String needed : List.of(VOCAB, TEMPLATE)) {
			if (!Files.isRegularFile(sources.resolve(needed))) {
				throw new IllegalStateException("the llama.cpp source " + sources + " has no " + needed + ". Fix: pass -D"
						+ HarnessConstants.LLAMACPP_SOURCE + "=<a llama.cpp checkout> or remove it to fetch node-llama-cpp's copy");
			}
		}
		Path link = out.resolve("llama-server");
		Files.deleteIfExists(link);
		Files.createSymbolicLink(link, binary);
		Path model = TinyLlama.write(sources.resolve(VOCAB), Optional.of(sources.resolve(TEMPLATE)), Optional.of("<|im_end|>"),
				TinyLlama.Spec.random(1), out.resolve(MODEL_FILE));
		ObjectNode info = Json.MAPPER.createObjectNode();
		info.put("server", binary.toString()).put("server_version", version(binary)).put("source", sources.toString());
		info.putObject("model")
				.put("file", model.toString())
				.put("bytes", Files.size(model))
				.put("sha256", sha256(model))
				.put("weights", "random, seed 1, not a trained model")
				.put("vocabulary", VOCAB)
				.put("chat_template", TEMPLATE);
		ArtifactFiles.writeJson(out.resolve("llamacpp.json"), info);
		return info;
	}

	private Path server(Optional<String> configured) {
		if (configured.isPresent()) {
			Path given = Path.of(configured.get()).toAbsolutePath();
			if (!Files.isRegularFile(given) || !Files.isExecutable(given)) {
				throw new IllegalStateException(HarnessConstants.LLAMACPP_SERVER + " [" + configured.get() + "] is not an executable file. "
						+ "Fix: pass -D" + HarnessConstants.LLAMACPP_SERVER + "=<path to llama-server>, or remove it to use llama-server "
						+ "on PATH or build one with " + script);
			}
			return given;
		}
		for (String dir : path.split(File.pathSeparator)) {
			Path candidate = dir.isEmpty() ? null : Path.of(dir, "llama-server");
			if (candidate != null && Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
				return candidate.toAbsolutePath();
			}
		}
		return Path.of(script());
	}

	/** Runs the build script; its last line of output is the path it printed. */
	private String script(String... args) {
		List<String> command = new ArrayList<>(List.of("bash", script.toString()));
		command.addAll(List.of(args));
		try {
			Process process = new ProcessBuilder(command).start();
			List<String> tail = new java.util.concurrent.CopyOnWriteArrayList<>();
			Thread echo = Thread.ofVirtual().start(() -> echo(process.getErrorStream(), tail));
			String stdout = read(process.getInputStream());
			process.waitFor();
			echo.join();
			if (process.exitValue() != 0) {
				throw new IllegalStateException(String.join(" ", command) + " failed (exit " + process.exitValue() + "): "
						+ String.join("\n", tail).strip() + "\nFix: install what it names, or pass -D" + HarnessConstants.LLAMACPP_SERVER
						+ "=<llama-server> and -D" + HarnessConstants.LLAMACPP_SOURCE + "=<llama.cpp source>");
			}
			String[] lines = stdout.strip().split("\n");
			return lines[lines.length - 1].strip();
		}
		catch (IOException e) {
			throw new UncheckedIOException("could not run " + command + ": " + e.getMessage(), e);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while running " + command, e);
		}
	}

	/** Copies the script's progress to stderr as it comes, keeping its last 20 lines for a failure message. */
	private static void echo(InputStream err, List<String> tail) {
		try (var lines = new java.io.BufferedReader(new java.io.InputStreamReader(err, StandardCharsets.UTF_8))) {
			for (String line = lines.readLine(); line != null; line = lines.readLine()) {
				System.err.println(line);
				tail.add(line);
				if (tail.size() > 20) {
					tail.remove(0);
				}
			}
		}
		catch (IOException e) {
			tail.add("(script output unreadable: " + e.getMessage() + ")");
		}
	}

	/** {@code llama-server --version}: its {@code version:} and {@code built with} lines. */
	static String version(Path binary) {
		try {
			Process process = new ProcessBuilder(binary.toString(), "--version").redirectErrorStream(true).start();
			String text = read(process.getInputStream());
			process.waitFor(30, TimeUnit.SECONDS);
			List<String> lines = text.lines().filter(l -> l.startsWith("version:") || l.startsWith("built with")).toList();
			return lines.isEmpty() ? "unknown (" + text.strip() + ")" : String.join("; ", lines);
		}
		catch (IOException e) {
			return "unknown (" + e.getMessage() + ")";
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return "unknown (interrupted)";
		}
	}

	private static String read(InputStream in) throws IOException {
		return new String(in.readAllBytes(), StandardCharsets.UTF_8);
	}

	static String sha256(Path file) throws IOException {
		try (InputStream in = Files.newInputStream(file)) {
			MessageDigest digest = MessageDigest.getInstance("SHA-256");
			byte[] buffer = new byte[1 << 16];
			for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
				digest.update(buffer, 0, n);
			}
			return HexFormat.of().formatHex(digest.digest());
		}
		catch (NoSuchAlgorithmException e) {
			throw new IllegalStateException(e);
		}
	}
}
