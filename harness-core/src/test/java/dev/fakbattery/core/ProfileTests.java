package dev.fakbattery.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("Profile: what each profile allows, as its Javadoc table says; a bad name lists the good ones")
class ProfileTests {

	@ParameterizedTest(name = "{0}: embedded target {1}, SIMULATED accepted {2}, smoke {3}, strict {4}")
	@CsvSource({
		"DEFAULT,  true,  true,  true,  false",
		"BATTERY,  true,  true,  false, false",
		"GPU,      false, false, false, true",
		"LLAMACPP, false, false, false, true",
		"GATE,     false, false, false, false" })
	@DisplayName("the table of what each profile allows")
	void allows(Profile profile, boolean embeddedTarget, boolean simulatedAccepted, boolean smoke, boolean strict) {
		assertThat(profile.embeddedTargetAllowed()).as("embeddedTargetAllowed").isEqualTo(embeddedTarget);
		assertThat(profile.simulatedAccepted()).as("simulatedAccepted").isEqualTo(simulatedAccepted);
		assertThat(profile.smoke()).as("smoke").isEqualTo(smoke);
		assertThat(profile.strict()).as("strict").isEqualTo(strict);
	}

	@Test
	@DisplayName("the strict profiles, whose artifacts may count toward COMPLETE, are named as -P options")
	void strictOnes() {
		assertThat(Profile.strictOnes()).isEqualTo("-Pgpu, -Pllamacpp");
	}

	@Test
	@DisplayName("a profile parses from its -P id in any case, around blanks")
	void parse() {
		for (Profile profile : Profile.values()) {
			assertThat(Profile.parse(profile.id())).isEqualTo(profile);
		}
		assertThat(Profile.LLAMACPP.id()).isEqualTo("llamacpp");
		assertThat(Profile.parse(" GPU ")).isEqualTo(Profile.GPU);
		assertThat(Profile.parse("Battery")).isEqualTo(Profile.BATTERY);
	}

	@Test
	@DisplayName("an unknown or missing name is refused, naming the value and every accepted name")
	void refuses() {
		assertThatThrownBy(() -> Profile.parse("cpu")).isInstanceOf(IllegalArgumentException.class)
				.hasMessage("Unable to parse profile [cpu]: use one of default, battery, gpu, llamacpp, gate");
		assertThatThrownBy(() -> Profile.parse(null)).isInstanceOf(IllegalArgumentException.class)
				.hasMessage("Unable to parse profile [null]: use one of default, battery, gpu, llamacpp, gate");
	}

	@Test
	@DisplayName("harness.profile defaults to default; a bad value names the parameter, the accepted names and the fix")
	void configured() {
		assertThat(config(Map.of()).profile()).isEqualTo(Profile.DEFAULT);
		assertThat(config(Map.of(HarnessConstants.PROFILE, "gpu")).profile()).isEqualTo(Profile.GPU);
		assertThatThrownBy(() -> config(Map.of(HarnessConstants.PROFILE, "cpu")).profile())
				.isInstanceOf(ConfigurationException.class)
				.hasMessage(
						"Unable to parse " + HarnessConstants.PROFILE + " value [cpu]: expected one of default, battery, gpu, llamacpp, "
								+ "gate. Fix: pass -D" + HarnessConstants.PROFILE + "=default or remove it to use the default.");
	}

	private static HarnessConfig config(Map<String, String> values) {
		return HarnessConfig.of(name -> Optional.ofNullable(values.get(name)));
	}
}
