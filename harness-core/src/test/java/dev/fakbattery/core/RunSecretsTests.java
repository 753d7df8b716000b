package dev.fakbattery.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("a run guards the value of the variable api.key.env names")
class RunSecretsTests {

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
}
