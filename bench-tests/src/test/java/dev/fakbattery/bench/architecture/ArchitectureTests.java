package dev.fakbattery.bench.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The module layering of DESIGN.md, pinned on the main code of every module (this module's test classpath holds
 * them all): tests -> harness-api (JUnit) -> harness-core (no test framework) -> harness-wire; harness-report (the gate,
 * history, comparison) -> harness-core; the engine double, the reference gateway and the capture command
 * depend on harness-wire only and never carry JUnit or Allure; the harness's JUnit extensions stay package-private behind
 * the composed annotations.
 */
@AnalyzeClasses(packages = "dev.fakbattery", importOptions = { ImportOption.DoNotIncludeTests.class,
	ArchitectureTests.DoNotIncludeTestJars.class })
class ArchitectureTests {

	/** Leaves out a module's test jar on this class path (harness-core's, for {@code SurefireSelection}): test code, not main. */
	static final class DoNotIncludeTestJars implements ImportOption {
		@Override
		public boolean includes(com.tngtech.archunit.core.importer.Location location) {
			return !location.contains("-tests.jar");
		}
	}

	private static final String[] TEST_FRAMEWORKS = { "org.junit..", "org.opentest4j..", "io.qameta.allure.." };

	@ArchTest
	static final ArchRule wireIsPure = noClasses().that()
			.resideInAPackage("dev.fakbattery.wire..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(join("dev.fakbattery.core..", "dev.fakbattery.api..",
					"dev.fakbattery.report..", "dev.fakbattery.engine..", "dev.fakbattery.gateway..", "dev.fakbattery.bench..",
					"dev.fakbattery.conformance.."))
			.because("harness-wire is the pure wire model every module uses");

	@ArchTest
	static final ArchRule wireCarriesNoTestFramework = noClasses().that()
			.resideInAPackage("dev.fakbattery.wire..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(TEST_FRAMEWORKS);

	@ArchTest
	static final ArchRule engineDoubleUsesWireOnly = noClasses().that()
			.resideInAPackage("dev.fakbattery.engine..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(join("dev.fakbattery.core..", "dev.fakbattery.report..", "dev.fakbattery.api..", "dev.fakbattery.gateway..",
					"dev.fakbattery.bench..", "dev.fakbattery.conformance..", "org.junit..", "org.opentest4j..", "io.qameta.allure.."))
			.because("the engine double runs as a plain jar with harness-wire only");

	@ArchTest
	static final ArchRule gatewayUsesWireOnly = noClasses().that()
			.resideInAPackage("dev.fakbattery.gateway..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(join("dev.fakbattery.core..", "dev.fakbattery.report..", "dev.fakbattery.api..", "dev.fakbattery.engine..",
					"dev.fakbattery.bench..", "dev.fakbattery.conformance..", "org.junit..", "org.opentest4j..", "io.qameta.allure.."))
			.because("the reference gateway runs as a plain jar with harness-wire only");

	@ArchTest
	static final ArchRule captureUsesWireOnly = noClasses().that()
			.resideInAPackage("dev.fakbattery.capture..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(join("dev.fakbattery.core..", "dev.fakbattery.report..", "dev.fakbattery.api..", "dev.fakbattery.engine..",
					"dev.fakbattery.gateway..", "dev.fakbattery.bench..", "dev.fakbattery.conformance..", "org.junit..", "org.opentest4j..",
					"io.qameta.allure.."))
			.because("the capture command runs as a plain jar on a serving node with harness-wire only");

	@ArchTest
	static final ArchRule coreCarriesNoTestFramework = noClasses().that()
			.resideInAPackage("dev.fakbattery.core..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(join("dev.fakbattery.api..", "dev.fakbattery.report..",
					"dev.fakbattery.engine..", "dev.fakbattery.gateway..", "dev.fakbattery.bench..", "dev.fakbattery.conformance..",
					"org.junit..", "org.opentest4j..", "io.qameta.allure.."))
			.because("harness-core is the battery without a test framework; the JUnit layer (harness-api) sits on top of it");

	@ArchTest
	static final ArchRule reportRunsWithoutJUnit = noClasses().that()
			.resideInAPackage("dev.fakbattery.report..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(join("dev.fakbattery.api..", "dev.fakbattery.engine..",
					"dev.fakbattery.gateway..", "dev.fakbattery.bench..", "dev.fakbattery.conformance..", "org.junit..",
					"org.opentest4j.."))
			.because("the gate, the history and the comparison are command-line tools over harness-core's artifacts");

	@ArchTest
	static final ArchRule harnessApiKnowsNoImplementation = noClasses().that()
			.resideInAPackage("dev.fakbattery.api..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.fakbattery.engine..", "dev.fakbattery.gateway..",
					"dev.fakbattery.bench..", "dev.fakbattery.conformance..")
			.because("harness-api finds the embedded gateway through a service interface, never by its class");

	@ArchTest
	static final ArchRule extensionsArePackagePrivate = classes().that()
			.resideInAPackage("dev.fakbattery.api..")
			.and()
			.implement(org.junit.jupiter.api.extension.Extension.class)
			.and()
			.doNotHaveFullyQualifiedName("dev.fakbattery.api.GuardedFailures")
			.should()
			.notBePublic()
			.because("extensions are registered by composed annotations, never used directly (GuardedFailures, the one "
					+ "Jupiter auto-detects from META-INF/services, must be public for the service loader)");

	private static String[] join(String... packages) {
		return packages;
	}
}
