package dev.fakbattery.engine.archfixture;

/** A deliberately wrong engine-double class for the architecture self-test: it uses JUnit and harness-api. */
public final class EngineUsingJUnit {

	private EngineUsingJUnit() {
	}

	static void check(boolean ok) {
		org.junit.jupiter.api.Assertions.assertTrue(ok);
		dev.fakbattery.core.Profile.parse("gpu");
	}
}
