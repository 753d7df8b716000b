package dev.fakbattery.bench.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;

import dev.fakbattery.api.archfixture.PublicExtension;
import dev.fakbattery.core.archfixture.CoreUsingJUnit;
import dev.fakbattery.engine.archfixture.EngineUsingJUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Each layering rule fails on a class that breaks it: the rules are not vacuous. */
@DisplayName("architecture rules fail on classes that break them")
class ArchitectureSelfTests {

	@Test
	@DisplayName("an engine-double class using JUnit and harness-api breaks the engine rule")
	void engineUsingJUnit() {
		EvaluationResult result = ArchitectureTests.engineDoubleUsesWireOnly.evaluate(classes(EngineUsingJUnit.class));
		assertThat(result.hasViolation()).isTrue();
		assertThat(result.getFailureReport().getDetails()).anyMatch(d -> d.contains("org.junit.jupiter.api.Assertions"))
				.anyMatch(d -> d.contains("dev.fakbattery.core.Profile"));
	}

	@Test
	@DisplayName("a harness-core class using JUnit and the JUnit layer breaks the core rule")
	void coreUsingJUnit() {
		EvaluationResult result = ArchitectureTests.coreCarriesNoTestFramework.evaluate(classes(CoreUsingJUnit.class));
		assertThat(result.hasViolation()).isTrue();
		assertThat(result.getFailureReport().getDetails()).anyMatch(d -> d.contains("org.junit.jupiter.api.Assumptions"))
				.anyMatch(d -> d.contains("dev.fakbattery.api.JupiterConfig"));
	}

	@Test
	@DisplayName("a public harness extension breaks the package-private rule")
	void publicExtension() {
		EvaluationResult result = ArchitectureTests.extensionsArePackagePrivate.evaluate(classes(PublicExtension.class));
		assertThat(result.hasViolation()).isTrue();
		assertThat(result.getFailureReport().getDetails()).anyMatch(d -> d.contains(PublicExtension.class.getName()));
	}

	private static JavaClasses classes(Class<?>... types) {
		return new ClassFileImporter().importClasses(types);
	}
}
