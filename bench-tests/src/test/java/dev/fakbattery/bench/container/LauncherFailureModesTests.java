package dev.fakbattery.bench.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.github.dockerjava.api.DockerClient;

import dev.fakbattery.core.HarnessConfig;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.TestcontainersConfiguration;

/**
 * The launcher's failure modes against the real Docker engine of this machine, with a tiny image built here
 * ({@code FROM scratch}: this machine's {@code /bin/sh} and {@code /bin/sleep} with their libraries; nothing pulled).
 * Skipped, naming why, where no Docker engine runs (then fast: one ping) or no {@code ldd}. The durations asserted are
 * bounds far above what they take (seconds), only there to prove that nothing waits for a timeout it should not.
 */
@DisplayName("engine launcher on a real Docker: failure modes with a locally built image")
class LauncherFailureModesTests {

	/** Far above the seconds these take; below the timeouts they must not wait for. */
	private static final Duration BOUND = Duration.ofSeconds(120);

	private static DockerClient docker;
	private static String shellImage;

	@TempDir
	Path logs;

	@BeforeAll
	static void dockerAndImage() {
		Assumptions.assumeTrue(DockerCheck.testcontainers().available(),
				"no Docker engine found (DOCKER_HOST, /var/run/docker.sock): the launcher's failure modes need a real one");
		Assumptions.assumeTrue(RootfsImageTests.onPath("ldd") && Files.isExecutable(Path.of("/bin/sh"))
				&& Files.isExecutable(Path.of("/bin/sleep")), "no ldd, /bin/sh or /bin/sleep here: the test image cannot be built");
		docker = DockerImages.client();
		RootfsImage image = RootfsImage.builder("fak-battery/selftest")
				.executable("/bin/sh", Path.of("/bin/sh"))
				.executable("/bin/sleep", Path.of("/bin/sleep"))
				.entrypoint("/bin/sh", "-c")
				.build();
		RootfsImage.Built built = image.ensure(docker, Duration.ofMinutes(5));
		RootfsImage.Built again = image.ensure(docker, Duration.ofMinutes(5));
		assertThat(again.reused()).isTrue();
		assertThat(again.imageId()).isEqualTo(built.imageId()).startsWith("sha256:");
		shellImage = built.tag();
	}

	@AfterEach
	void noneLeft() {
		assertThat(ContainerLeftovers.left(docker, TestcontainersEngineLauncher.scope())).as("containers left by this test").isEmpty();
	}

	private EngineContainerSpec spec(String image, String script, Duration startup) {
		return spec(image, script, startup, Optional.empty());
	}

	private EngineContainerSpec spec(String image, String script, Duration startup, Optional<String> cpuset) {
		return new EngineContainerSpec(image, "selftest", List.of(), List.of(script), EngineContainerSpec.PORT, false, 0,
				EngineContainerSpec.HEALTH_PATH, startup, Duration.ofSeconds(60), logs, Optional.empty(), cpuset);
	}

	/** The Docker host's last CPU, as a cpuset: a set smaller than the host wherever it has more than one. */
	private static String lastCpu() {
		return String.valueOf(docker.infoCmd().exec().getNCPU() - 1);
	}

	/** Testcontainers starts containers here: no image it needs is missing (reaperMissing covers that). */
	private static void assumeTestcontainersCanStart() {
		Throwable missing = catchThrowable(() -> {
			DockerImages.requireReaper(docker, System::getenv, Duration.ofSeconds(30));
			DockerImages.requireHostAddress(docker, System::getenv, Duration.ofSeconds(30));
		});
		Assumptions.assumeTrue(missing == null, () -> "Testcontainers cannot start a container here: " + missing.getMessage());
	}

	@Test
	@DisplayName("an image neither here nor pullable: its name and the pull's cause, in bounded time, once for all rungs")
	void missingImage() {
		String image = "fak-battery/absent:no-such-tag-" + ProcessHandle.current().pid();
		EngineContainers engines = EngineContainers.create(DockerCheck.testcontainers(), new TestcontainersEngineLauncher(),
				name -> null);
		HarnessConfig config = Configs.of("engine", "llamacpp", "engine.image", image, "model", "m", "engine.pull.timeout.sec", "60",
				"experiments.dir", logs.toString());
		long started = System.nanoTime();
		Throwable first = catchThrowable(() -> engines.engineUrl(config));
		Duration took = Duration.ofNanos(System.nanoTime() - started);
		assertThat(first).isExactlyInstanceOf(EngineUnavailableError.class)
				.hasMessageContaining("engine.image " + image + " is not on this Docker engine and could not be pulled: ")
				.hasMessageContaining("Fix: check the tag, build the image locally");
		assertThat(took).isLessThan(BOUND);
		long again = System.nanoTime();
		assertThatThrownBy(() -> engines.engineUrl(config)).hasMessage(first.getMessage() + " (first attempt in this JVM; not retried)");
		assertThat(Duration.ofNanos(System.nanoTime() - again)).isLessThan(Duration.ofSeconds(5));
		engines.close();
	}

	/**
	 * Both ways a container can die before it is healthy: at once (Testcontainers' own start check fails) and a second
	 * later (the health wait sees it stopped). Each twice, as the exit code used to go missing on one of them at times.
	 */
	@ParameterizedTest(name = "{0}, try {2}")
	@CsvSource({ "at once, '', 1", "at once, '', 2", "after a second, '/bin/sleep 1; ', 1", "after a second, '/bin/sleep 1; ', 2" })
	@DisplayName("a container that exits at start: its exit code and last log lines, without waiting for the timeout")
	void exitsAtStart(String when, String delay, int attempt) {
		assumeTestcontainersCanStart();
		long started = System.nanoTime();
		Throwable failure = catchThrowable(() -> new TestcontainersEngineLauncher().start(
				spec(shellImage, "echo loading model; " + delay + "echo 'error: model file not found' >&2; exit 3", Duration.ofMinutes(10)),
				Map.of()));
		assertThat(failure).isInstanceOf(TestcontainersEngineLauncher.ContainerStartException.class)
				.hasMessageFindingMatch("^(Container startup failed for image " + java.util.regex.Pattern.quote(shellImage)
						+ "|the container stopped before GET /health answered 200 \\(last: .*?\\)); the container exited with code 3; "
						+ "its last 2 log lines:\n  ")
				.hasMessageContaining("\n  loading model")
				.hasMessageContaining("\n  error: model file not found")
				.hasMessageContaining("(log: " + logs);
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(BOUND);
	}

	@Test
	@DisplayName("engine.cpuset: the started container is restricted to it (Docker's HostConfig.CpusetCpus and the kernel's Cpus_allowed_list)")
	void pinnedToCpuset() {
		assumeTestcontainersCanStart();
		String cpuset = lastCpu();
		String script = "while read l; do case \"$l\" in Cpus_allowed_list*) echo \"$l\";; esac; done < /proc/self/status; "
				+ "exec /bin/sleep 600";
		// the launcher's own configuration (customize included); only the wait differs, as /bin/sh serves no /health
		GenericContainer<?> container = TestcontainersEngineLauncher
				.container(spec(shellImage, script, BOUND, Optional.of(cpuset)), Map.of())
				.waitingFor(Wait.forLogMessage(".*Cpus_allowed_list.*\\n", 1).withStartupTimeout(BOUND));
		try {
			container.start();
			assertThat(docker.inspectContainerCmd(container.getContainerId()).exec().getHostConfig().getCpusetCpus()).isEqualTo(cpuset);
			assertThat(container.getLogs()).containsPattern("Cpus_allowed_list:\\s+" + cpuset + "\\s*$");
		}
		finally {
			container.stop();
		}
	}

	@Test
	@DisplayName("llama.cpp pinned through the launcher: healthy, -t 1, HostConfig.CpusetCpus and engine_cpuset in the provenance")
	void llamacppPinned() {
		assumeTestcontainersCanStart();
		Optional<String> image = docker.listImagesCmd()
				.withReferenceFilter(LlamaCppImage.REPOSITORY)
				.exec()
				.stream()
				.flatMap(found -> found.getRepoTags() == null
						? java.util.stream.Stream.empty()
						: java.util.Arrays.stream(found.getRepoTags()))
				.filter(tag -> tag.startsWith(LlamaCppImage.REPOSITORY + ":"))
				.findFirst();
		Assumptions.assumeTrue(image.isPresent(),
				"no " + LlamaCppImage.REPOSITORY + " image on this Docker engine: ./mvnw verify -Pllamacpp,container builds one");
		String cpuset = lastCpu();
		EngineContainerSpec spec = EngineContainerSpec.from(Configs.of("engine", "llamacpp", "engine.image", image.get(), "model",
				"tiny-random-llama", "checkpoint.model", "tiny-random-llama.gguf", "context.length", "2048", "engine.cpuset", cpuset,
				"engine.startup.timeout.sec", "120", "experiments.dir", logs.toString()));
		try (RunningEngine engine = new TestcontainersEngineLauncher().start(spec, Map.of())) {
			String id = engine.provenance().get("engine_container_id");
			var inspected = docker.inspectContainerCmd(id).exec();
			assertThat(inspected.getHostConfig().getCpusetCpus()).isEqualTo(cpuset);
			assertThat(inspected.getArgs()).containsSubsequence("-t", "1");
			assertThat(engine.provenance()).containsEntry("engine_cpuset", cpuset).containsEntry("engine_image", image.get());
		}
	}

	@Test
	@DisplayName("a container that never gets healthy: the timeout and its last log lines; the log file kept")
	void neverHealthy() throws Exception {
		assumeTestcontainersCanStart();
		Throwable failure = catchThrowable(() -> new TestcontainersEngineLauncher()
				.start(spec(shellImage, "echo serving nothing; exec /bin/sleep 600", Duration.ofSeconds(3)), Map.of()));
		assertThat(failure).isInstanceOf(TestcontainersEngineLauncher.ContainerStartException.class)
				.hasMessageContaining("GET /health did not answer 200 within 3 s (engine.startup.timeout.sec; last: ")
				.hasMessageContaining("serving nothing")
				.message()
				.doesNotContain("exited with code");
		try (var files = Files.list(logs)) {
			List<Path> written = files.toList();
			assertThat(written).singleElement().satisfies(file -> assertThat(Files.readString(file)).contains("serving nothing"));
		}
	}

	@Test
	@DisplayName("a JVM SIGKILLed while its container starts (no shutdown hook runs) leaves no container: the reaper removes it")
	void sigkilledJvmLeavesNoContainer() throws Exception {
		assumeTestcontainersCanStart();
		String scope = TestcontainersEngineLauncher.scope();
		Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
				System.getProperty("java.class.path"), "-D" + TestcontainersEngineLauncher.ROOT_DIR + "=" + scope,
				ContainerStarterChild.class.getName(), shellImage, logs.toString())
				.redirectErrorStream(true)
				.redirectOutput(logs.resolve("child.out").toFile())
				.start();
		try {
			long deadline = System.nanoTime() + BOUND.toNanos();
			while (ContainerLeftovers.left(docker, scope).stream().noneMatch(found -> found.contains("(Up "))
					&& child.isAlive() && System.nanoTime() < deadline) {
				Thread.sleep(200);
			}
			assertThat(ContainerLeftovers.left(docker, scope)).as("the child's container, running while it waits for /health "
					+ "(child output: " + logs.resolve("child.out") + ")").anyMatch(found -> found.contains("(Up "));
		}
		finally {
			child.destroyForcibly();
		}
		assertThat(child.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).as("the child JVM exited").isTrue();
		assertThat(child.exitValue()).as("exit status of a SIGKILLed JVM").isEqualTo(128 + 9);
		long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
		while (!ContainerLeftovers.left(docker, scope).isEmpty() && System.nanoTime() < deadline) {
			Thread.sleep(200);
		}
		// the reaper removes it within seconds of the JVM's death
		List<String> left = ContainerLeftovers.left(docker, scope);
		docker.listContainersCmd()
				.withShowAll(true)
				.withLabelFilter(Map.of(TestcontainersEngineLauncher.LABEL, scope))
				.exec()
				.forEach(found -> docker.removeContainerCmd(found.getId()).withForce(true).exec());
		assertThat(left).as("containers left after the SIGKILL").isEmpty();
	}

	@Test
	@DisplayName("Ryuk on and its image absent: the image and TESTCONTAINERS_RYUK_DISABLED=true named, in bounded time")
	void reaperMissing() {
		String ryuk = TestcontainersConfiguration.getInstance().getRyukImage();
		Assumptions.assumeTrue(DockerImages.localId(docker, ryuk).isEmpty(), "the Ryuk image " + ryuk + " is on this engine");
		long started = System.nanoTime();
		Throwable failure = catchThrowable(() -> DockerImages.requireReaper(docker, name -> null, Duration.ofSeconds(60)));
		Duration took = Duration.ofNanos(System.nanoTime() - started);
		if (failure == null) {
			// a registry answered: the pull worked, which is the other correct outcome; leave the engine as it was
			assertThat(DockerImages.localId(docker, ryuk)).isPresent();
			docker.removeImageCmd(ryuk).exec();
			return;
		}
		assertThat(failure).isInstanceOf(IllegalStateException.class)
				.hasMessageContaining(ryuk + " is not on this Docker engine and could not be pulled: ")
				.hasMessageContaining("Fix: export TESTCONTAINERS_RYUK_DISABLED=true");
		assertThat(took).isLessThan(BOUND);
		DockerImages.requireReaper(docker, Map.of(DockerImages.RYUK_DISABLED, "true")::get, Duration.ofSeconds(1));
	}

	@Test
	@DisplayName("the leftover check sees a container with the checkout's label (created, never started), and none once removed")
	void leftoverSeen() {
		String id = docker.createContainerCmd(shellImage)
				.withCmd("exit 0")
				.withLabels(Map.of(TestcontainersEngineLauncher.LABEL, TestcontainersEngineLauncher.scope()))
				.exec()
				.getId();
		try {
			assertThat(ContainerLeftovers.left(docker, TestcontainersEngineLauncher.scope())).singleElement()
					.asString()
					.startsWith(id.substring(0, 12) + " " + shellImage);
			assertThat(ContainerLeftovers.left(docker, "/some/other/checkout")).isEmpty();
		}
		finally {
			docker.removeContainerCmd(id).withForce(true).exec();
		}
	}
}
