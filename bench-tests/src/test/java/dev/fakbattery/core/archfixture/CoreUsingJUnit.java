package dev.fakbattery.core.archfixture;

/** A deliberately wrong harness-core class for the architecture self-test: it uses JUnit and the JUnit layer. */
public final class CoreUsingJUnit {

	private CoreUsingJUnit() {
	}

	static void check(boolean ok) {
		org.junit.jupiter.api.Assumptions.assumeTrue(ok);
		dev.fakbattery.api.JupiterConfig.class.getName();
	}
}
