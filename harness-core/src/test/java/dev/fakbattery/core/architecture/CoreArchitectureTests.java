package dev.fakbattery.core.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * harness-core carries no test framework: not JUnit, not opentest4j, not Allure, and none of the modules above it.
 * The rule runs on this module's main classes, and on a test class that breaks it, so it cannot pass vacuously.
 */
@DisplayName("harness-core carries no test framework")
class CoreArchitectureTests {

	static final ArchRule NO_TEST_FRAMEWORK = noClasses().that()
			.resideInAPackage("dev.fakbattery.core..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.junit..", "org.opentest4j..", "io.qameta.allure..",
					"dev.fakbattery.api..", "dev.fakbattery.report..", "dev.fakbattery.bench..", "dev.fakbattery.conformance..")
			.because("harness-core is the battery without a test framework; the JUnit layer is harness-api");

	@Test
	@DisplayName("no main class of harness-core depends on a test framework or a module above it")
	void mainClassesCarryNoTestFramework() {
		JavaClasses main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
				.importPackages("dev.fakbattery.core");
		assertThat(main).as("harness-core main classes imported").hasSizeGreaterThan(50);
		NO_TEST_FRAMEWORK.check(main);
	}

	@Test
	@DisplayName("the rule fails on a class that uses JUnit")
	void ruleFailsOnJUnit() {
		JavaClasses broken = new ClassFileImporter().importClasses(UsesJUnit.class);
		assertThat(NO_TEST_FRAMEWORK.evaluate(broken).getFailureReport().getDetails())
				.anyMatch(d -> d.contains("org.junit.jupiter.api.Assertions"));
	}

	/** Deliberately wrong: a core class that depends on JUnit. */
	static final class UsesJUnit {

		static void check(boolean ok) {
			org.junit.jupiter.api.Assertions.assertTrue(ok);
		}
	}
}
