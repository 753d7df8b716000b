package dev.fakbattery.core;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.target.TargetIdentity;
import dev.fakbattery.wire.Json;

import org.apiguardian.api.API;

/**
 * The provenance block of every artifact: who measured, with what, on what. A fact that is not
 * known is {@code null}, never guessed.
 *
 * @since 0.1
 */
@API(status = API.Status.INTERNAL, since = "0.6")
public final class Provenance {

	/** Names echoed into the reproduce command when set. */
	/**
	 * Keys that name where a run writes or who it is, not what it measures, left out of {@code reproduce_command}; every
	 * other key that is set goes in (a hand-kept list of names left out {@code stop.looks} and {@code sweep.requests},
	 * so a command read off an artifact measured something else).
	 */
	private static final Set<String> NOT_REPRODUCED = Set.of(HarnessConstants.PROFILE, HarnessConstants.EXPERIMENTS_DIR,
			HarnessConstants.RUN_ID, HarnessConstants.ROOT_DIR, HarnessConstants.HISTORY_DIR, HarnessConstants.COMPARE_BASE,
			HarnessConstants.COMPARE_HEAD, HarnessConstants.COMPARE_OUT, HarnessConstants.REPORT_CHROMIUM,
			HarnessConstants.REPORT_CHROMEDRIVER);

	private Provenance() {
	}

	/**
	 * The provenance of an artifact. {@code engine} and {@code engine_version} are what the measured engine said
	 * ({@code target}; {@value TargetIdentity#ENGINE_DOUBLE} for the double); with no target they are null, never the configured
	 * dialect passed off as a reading. {@code engine_identity} says where the engine kind came from: {@code observed},
	 * or {@code declared} by {@code engine.identity} and not observed.
	 */
	public static ObjectNode collect(HarnessConfig config, Optional<TargetIdentity> target, Map<String, String> overrides) {
		ObjectNode node = Json.MAPPER.createObjectNode();
		node.put("harness_version", harnessVersion());
		node.put("git_commit", gitCommit(rootDir(config)).orElse(null));
		node.put("git_dirty", gitDirty(rootDir(config)).orElse(null));
		node.put("host", host());
		node.put("jdk", System.getProperty("java.vendor") + " " + Runtime.version());
		node.put("os", System.getProperty("os.name") + " " + System.getProperty("os.arch"));
		// the CPUs the harness JVM (the load client) may run on: fewer than the host's when it was pinned (taskset)
		node.put("client_cpus", Runtime.getRuntime().availableProcessors());
		node.put("profile", config.profile().id());
		node.put("reproduce_command", reproduceCommand(config));
		node.put("engine", target.map(TargetIdentity::engineKind).orElse(null));
		node.put("engine_identity", target.map(TargetIdentity::identity).orElse(null));
		node.put("engine_version", target.map(TargetIdentity::engineVersion).orElse(null));
		node.put("engine_double", target.map(TargetIdentity::engineDouble).orElse(null));
		node.put("dialect", config.engine().id());
		node.put("model", config.string(HarnessConstants.MODEL).orElse(null));
		node.put("checkpoint_model", config.string(HarnessConstants.CHECKPOINT_MODEL).orElse(null));
		node.put("precision", config.string(HarnessConstants.QUANT).orElse(null));
		node.put("batching_regime", config.string(HarnessConstants.BATCHING_REGIME).orElse(null));
		node.put("determinism_mode", Determinism.resolve(config).token());
		node.put("api_key_env", config.string(HarnessConstants.API_KEY_ENV).orElse(null));
		overrides.forEach(node::put);
		return node;
	}

	/**
	 * {@code ./mvnw verify -P<profile> -Dname=value ...} over every key of {@link ConfigKeys} that is set, in their
	 * order, but those naming where the run writes.
	 */
	public static String reproduceCommand(HarnessConfig config) {
		StringBuilder command = new StringBuilder("./mvnw verify");
		Profile profile = config.profile();
		if (profile != Profile.DEFAULT) {
			command.append(" -P").append(profile.id());
		}
		for (ConfigKey<?> key : ConfigKeys.all()) {
			if (!NOT_REPRODUCED.contains(key.name())) {
				config.string(key.name()).ifPresent(value -> command.append(" -D").append(key.name()).append('=').append(quoted(value)));
			}
		}
		return command.toString();
	}

	public static String harnessVersion() {
		try (InputStream in = Provenance.class.getResourceAsStream("/fak-battery-harness.properties")) {
			Properties properties = new Properties();
			if (in != null) {
				properties.load(in);
			}
			return properties.getProperty("harness.version");
		}
		catch (IOException e) {
			return null;
		}
	}

	/** The commit checked out at {@code root}, in a clone or in a worktree ({@code .git} a file naming its git dir). */
	static Optional<String> gitCommit(Path root) {
		try {
			Path git = root.resolve(".git");
			if (Files.isRegularFile(git) && Files.readString(git).startsWith("gitdir: ")) {
				git = root.resolve(Files.readString(git).substring("gitdir: ".length()).trim()).normalize();
			}
			Path common = Files.isRegularFile(git.resolve("commondir"))
					? git.resolve(Files.readString(git.resolve("commondir")).trim()).normalize()
					: git;
			String head = Files.readString(git.resolve("HEAD")).trim();
			if (!head.startsWith("ref: ")) {
				return Optional.of(head);
			}
			String ref = head.substring(5);
			for (Path dir : List.of(git, common)) {
				Path loose = dir.resolve(ref);
				if (Files.exists(loose)) {
					return Optional.of(Files.readString(loose).trim());
				}
			}
			Path packed = common.resolve("packed-refs");
			if (Files.exists(packed)) {
				return Files.readAllLines(packed)
						.stream()
						.filter(line -> line.endsWith(" " + ref))
						.map(line -> line.substring(0, line.indexOf(' ')))
						.findFirst();
			}
		}
		catch (IOException e) {
			// not a git checkout: unknown, not guessed
		}
		return Optional.empty();
	}

	/**
	 * Whether the checkout at {@code root} has changes not committed (tracked or untracked, {@code git status
	 * --porcelain}), read once per checkout and JVM; empty when unknown: not a git checkout, no {@code git}, or no
	 * answer within {@value #GIT_STATUS_TIMEOUT_S} s.
	 */
	static Optional<Boolean> gitDirty(Path root) {
		return DIRTY.computeIfAbsent(root.toAbsolutePath().normalize(), Provenance::gitStatus);
	}

	private static final long GIT_STATUS_TIMEOUT_S = 10;

	private static final java.util.Map<Path, Optional<Boolean>> DIRTY = new java.util.concurrent.ConcurrentHashMap<>();

	private static Optional<Boolean> gitStatus(Path root) {
		if (!Files.exists(root.resolve(".git"))) {
			return Optional.empty();
		}
		Process process = null;
		try {
			Path out = Files.createTempFile("fak-battery-git-status", ".txt");
			try {
				process = new ProcessBuilder("git", "-C", root.toString(), "status", "--porcelain")
						.redirectError(ProcessBuilder.Redirect.DISCARD)
						.redirectOutput(out.toFile())
						.start();
				if (!process.waitFor(GIT_STATUS_TIMEOUT_S, java.util.concurrent.TimeUnit.SECONDS) || process.exitValue() != 0) {
					return Optional.empty();
				}
				return Optional.of(!Files.readString(out).isBlank());
			}
			finally {
				Files.deleteIfExists(out);
			}
		}
		catch (IOException e) {
			return Optional.empty();
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return Optional.empty();
		}
		finally {
			if (process != null && process.isAlive()) {
				process.destroyForcibly();
			}
		}
	}

	static Path rootDir(HarnessConfig config) {
		Path start = config.path(HarnessConstants.ROOT_DIR).orElse(Path.of("")).toAbsolutePath();
		for (Path dir = start; dir != null; dir = dir.getParent()) {
			if (Files.exists(dir.resolve(".git"))) {
				return dir;
			}
		}
		return start;
	}

	private static String host() {
		try {
			return InetAddress.getLocalHost().getHostName();
		}
		catch (IOException e) {
			return null;
		}
	}

	private static String quoted(String value) {
		return value.matches("[A-Za-z0-9_./:,=@+-]+") ? value : "'" + value.replace("'", "'\\''") + "'";
	}
}
