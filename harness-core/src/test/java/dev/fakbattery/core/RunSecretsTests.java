package dev.fakbattery.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Optional;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/** Isolated: the JVM's guard is read from a system property, which one test sets while it runs. */
@Isolated
@DisplayName("a run guards the value of the variable api.key.env names")
class RunSecretsTests {

	/** A variable every test JVM has, its value long enough to guard: PATH. */
	private static final String VARIABLE = "PATH";

	@Test
	@DisplayName("the API key is the value of the variable api.key.env names; unset, or too short to tell apart, it guards nothing")
	void keyFromConfig() {
		HarnessConfig config = HarnessConfig.of(name -> Optional.of("MY_KEY").filter(v -> name.equals("api.key.env")));

		assertThatThrownBy(() -> RunSecrets.of(config, name -> "sk-secret-123")
				.requireAbsent("{\"auth\":\"sk-secret-123\"}",
						"artifact a.json"))
				.hasMessage("artifact a.json would contain the value of the environment variable MY_KEY (api.key.env), raw; "
						+ "refused to write it");
		assertThat(RunSecrets.of(config, name -> null).isEmpty()).isTrue();
		assertThat(RunSecrets.of(config, name -> "abc").isEmpty()).isTrue();
		assertThat(RunSecrets.of(HarnessConfig.of(name -> Optional.empty()), name -> "sk-secret-123").isEmpty()).isTrue();
	}

	@Test
	@DisplayName("the JVM's guard reads the variable the system property api.key.env names from the environment")
	void jvmGuardFromTheSystemProperty() {
		String value = System.getenv(VARIABLE);
		assumeTrue(value != null && value.length() >= 8, "the test JVM's environment has no PATH to plant as the key");
		String before = System.getProperty("api.key.env");
		System.setProperty("api.key.env", VARIABLE);
		try {
			assertThatThrownBy(() -> RunSecrets.jvm().requireAbsent("{\"path\":\"" + value + "\"}", "artifact p.json"))
					.hasMessage("artifact p.json would contain the value of the environment variable PATH (api.key.env), raw; "
							+ "refused to write it");
		}
		finally {
			if (before == null) {
				System.clearProperty("api.key.env");
			}
			else {
				System.setProperty("api.key.env", before);
			}
		}
		if (before == null) {
			assertThat(RunSecrets.jvm().isEmpty()).as("without -Dapi.key.env the JVM guards nothing").isTrue();
		}
	}

	@Test
	@DisplayName("a run's guard adds the key its configuration names to the JVM's")
	void runGuardAddsTheConfiguredKey() {
		String value = System.getenv(VARIABLE);
		assumeTrue(value != null && value.length() >= 8, "the test JVM's environment has no PATH to plant as the key");
		HarnessConfig config = HarnessConfig.of(name -> Optional.of(VARIABLE).filter(v -> name.equals("api.key.env")));

		assertThatThrownBy(() -> RunSecrets.forRun(config).requireAbsent("path=" + value, "log gateway.log"))
				.hasMessageContaining("the value of the environment variable PATH (api.key.env)");
		assertThat(RunSecrets.forRun(HarnessConfig.of(name -> Optional.empty())).find("path=" + value))
				.as("a configuration without api.key.env adds nothing")
				.isEqualTo(RunSecrets.jvm().find("path=" + value));
	}
}
