package dev.fakbattery.core.architecture;

import dev.fakbattery.core.HarnessConfig;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Every public top-level type of harness-core carries {@code @API} with its status ({@link ApiMarkings}). */
@DisplayName("harness-core's public types carry @API")
class ApiMarkingTests {

	@Test
	@DisplayName("every public top-level main type of dev.fakbattery.core.. is marked @API")
	void mainTypesAreMarked() {
		ApiMarkings.checkMainClasses("dev.fakbattery.core", 50);
	}

	@Test
	@DisplayName("the rule fails on a public type without @API and passes on a marked one")
	void ruleFailsOnUnmarkedType() {
		ApiMarkings.assertRuleCatches("dev.fakbattery.core", UnmarkedPublicType.class, HarnessConfig.class);
	}
}
