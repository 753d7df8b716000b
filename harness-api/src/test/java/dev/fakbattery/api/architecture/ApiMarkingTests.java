package dev.fakbattery.api.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;

import dev.fakbattery.api.Rung;
import dev.fakbattery.core.architecture.ApiMarkings;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every public top-level type of harness-api carries {@code @API} with its status (the rule of harness-core's
 * {@link ApiMarkings}). It runs on this module's main classes, and on a public type without the marking, so it cannot
 * pass vacuously.
 */
@DisplayName("harness-api's public types carry @API")
class ApiMarkingTests {

	private static final ArchRule MARKED = ApiMarkings.everyPublicTypeMarked("dev.fakbattery.api..");

	@Test
	@DisplayName("every public top-level main type of dev.fakbattery.api.. is marked @API")
	void mainTypesAreMarked() {
		JavaClasses main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.importPackages("dev.fakbattery.api");
		assertThat(main).as("harness-api main classes imported").hasSizeGreaterThan(10);
		MARKED.check(main);
	}

	@Test
	@DisplayName("the rule fails on a public type without @API and passes on a marked one")
	void ruleFailsOnUnmarkedType() {
		JavaClasses unmarked = new ClassFileImporter().importClasses(UnmarkedApiType.class);
		assertThat(MARKED.evaluate(unmarked).getFailureReport().getDetails())
			.anyMatch(d -> d.contains(UnmarkedApiType.class.getName()) && d.contains("is not annotated with @API"));
		assertThat(MARKED.evaluate(new ClassFileImporter().importClasses(Rung.class)).hasViolation()).isFalse();
	}
}
