package dev.fakbattery.bench.container;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The child JVM of {@link LauncherFailureModesTests#sigkilledJvmLeavesNoContainer}: starts {@code IMAGE} through the
 * launcher with a script that never answers {@code /health} and a five-minute startup timeout, so it is still waiting
 * for the container when the test SIGKILLs it.
 */
public final class ContainerStarterChild {

	private ContainerStarterChild() {
	}

	/** {@code ContainerStarterChild IMAGE LOG_DIR}. */
	public static void main(String[] args) {
		EngineContainerSpec spec = new EngineContainerSpec(args[0], "selftest", List.of(),
				List.of("echo waiting to be killed; exec /bin/sleep 600"), EngineContainerSpec.PORT, false, 0,
				EngineContainerSpec.HEALTH_PATH, Duration.ofMinutes(5), Duration.ofSeconds(60), Path.of(args[1]), Optional.empty(),
				Optional.empty());
		new TestcontainersEngineLauncher().start(spec, Map.of());
	}
}
