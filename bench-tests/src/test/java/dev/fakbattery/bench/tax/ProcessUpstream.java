package dev.fakbattery.bench.tax;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.process.ChildJava;
import dev.fakbattery.core.process.ManagedProcess;
import dev.fakbattery.core.target.TargetIdentity;
import dev.fakbattery.engine.TimingModel;
import dev.fakbattery.wire.Dialect;

/**
 * The engine double in its own JVM ({@code java -jar engine-double/target/engine-double.jar}), so its emissions do
 * not share the test JVM's JIT, GC and virtual-thread carriers with the load client and the gateway: what lets the
 * sweeps measure 64 and 128 streams on a 2-core machine. Its lag is read over its admin endpoint
 * ({@link HttpUpstreamLag}). The jar is found under {@code harness.root.dir}, else by walking up from the working
 * directory; {@link #jar} says when it is missing (build it with {@code ./mvnw -pl engine-double package}).
 */
final class ProcessUpstream implements AutoCloseable {

	static final String JAR = "engine-double/target/engine-double.jar";

	private final ManagedProcess process;

	private final URI root;

	private final Dialect dialect;

	private final String settings;

	private final TimingModel timing;

	private ProcessUpstream(ManagedProcess process, URI root, Dialect dialect, String settings, TimingModel timing) {
		this.process = process;
		this.root = root;
		this.dialect = dialect;
		this.settings = settings;
		this.timing = timing;
	}

	/** The double's jar, when it was built. */
	static Optional<Path> jar(HarnessConfig config) {
		Optional<Path> rooted = config.path(HarnessConstants.ROOT_DIR).map(root -> root.resolve(JAR)).filter(Files::isRegularFile);
		if (rooted.isPresent()) {
			return rooted;
		}
		for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
			if (Files.isRegularFile(dir.resolve(JAR))) {
				return Optional.of(dir.resolve(JAR));
			}
		}
		return Optional.empty();
	}

	/** Starts the double for {@code run}'s engine and model from {@code jar}, records it as the run's target. */
	static ProcessUpstream start(RungRecorder run, Path jar, TimingModel timing) {
		HarnessConfig config = run.config();
		Dialect dialect = config.engine();
		String model = config.string(HarnessConstants.MODEL).orElse("Qwen/Qwen2.5-7B-Instruct");
		String java = ChildJava.shellCommand();
		ManagedProcess process = ManagedProcess.startOnFreePort("engine double", port -> String.join(" ", List.of(java,
				"-XX:+UseSerialGC", "-jar", "'" + jar + "'", "--dialect", dialect.id(), "--port", String.valueOf(port), "--model",
				"'" + model + "'", "--seed", String.valueOf(TaxSettings.SEED), "--timing", "instant", "--ttft-ms", ms(timing.ttftBase()),
				"--itl-ms", ms(timing.itlBase()), "--per-prompt-token-us", String.valueOf(timing.perPromptToken().toNanos() / 1e3),
				"--batch-alpha", String.valueOf(timing.batchAlpha()), "--jitter", String.valueOf(timing.jitter()))),
				port -> config.experimentsDir().resolve("logs").resolve("engine-double-" + port + ".log"),
				port -> List.of(URI.create("http://127.0.0.1:" + port + "/health")), Duration.ofSeconds(60));
		URI root = URI.create("http://127.0.0.1:" + process.port());
		run.target(URI.create(root + "/v1"), TargetIdentity.EMBEDDED);
		return new ProcessUpstream(process, root, dialect, timing + ", own JVM (" + jar.getFileName() + ", serial GC"
				+ ChildJava.flags()
						.stream()
						.filter(flag -> !flag.contains("SerialGC"))
						.map(flag -> ", " + flag)
						.collect(Collectors.joining())
				+ "), seed "
				+ TaxSettings.SEED, timing);
	}

	private static String ms(Duration duration) {
		return String.valueOf(duration.toNanos() / 1e6);
	}

	TaxUpstream upstream() {
		String because = "no " + HarnessConstants.BASE_URL + ": measured against the engine double (" + dialect + " dialect, " + settings
				+ ") with the gateway in front of it; not a real engine";
		return TaxUpstream.simulated(URI.create(root + "/v1"), dialect, because, new HttpUpstreamLag(root), timing.batchingFormula());
	}

	@Override
	public void close() {
		process.close();
	}
}
