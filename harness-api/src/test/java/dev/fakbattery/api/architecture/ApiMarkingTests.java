package dev.fakbattery.api.architecture;

import dev.fakbattery.api.Rung;
import dev.fakbattery.core.architecture.ApiMarkings;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Every public top-level type of harness-api carries {@code @API} with its status (harness-core's {@link ApiMarkings}). */
@DisplayName("harness-api's public types carry @API")
class ApiMarkingTests {

	@Test
	@DisplayName("every public top-level main type of dev.fakbattery.api.. is marked @API")
	void mainTypesAreMarked() {
		ApiMarkings.checkMainClasses("dev.fakbattery.api", 10);
	}

	@Test
	@DisplayName("the rule fails on a public type without @API and passes on a marked one")
	void ruleFailsOnUnmarkedType() {
		ApiMarkings.assertRuleCatches("dev.fakbattery.api", UnmarkedApiType.class, Rung.class);
	}
}
