package dev.fakbattery.core.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;

import dev.fakbattery.core.HarnessConfig;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every public top-level type of harness-core carries {@code @API} with its status. The rule runs on this module's
 * main classes, and on a public type without the marking, so it cannot pass vacuously.
 */
@DisplayName("harness-core's public types carry @API")
class ApiMarkingTests {

	private static final ArchRule MARKED = ApiMarkings.everyPublicTypeMarked("dev.fakbattery.core..");

	@Test
	@DisplayName("every public top-level main type of dev.fakbattery.core.. is marked @API")
	void mainTypesAreMarked() {
		JavaClasses main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.importPackages("dev.fakbattery.core");
		assertThat(main).as("harness-core main classes imported").hasSizeGreaterThan(50);
		MARKED.check(main);
	}

	@Test
	@DisplayName("the rule fails on a public type without @API and passes on a marked one")
	void ruleFailsOnUnmarkedType() {
		JavaClasses unmarked = new ClassFileImporter().importClasses(UnmarkedPublicType.class);
		assertThat(MARKED.evaluate(unmarked).getFailureReport().getDetails())
			.anyMatch(d -> d.contains(UnmarkedPublicType.class.getName()) && d.contains("is not annotated with @API"));
		assertThat(MARKED.evaluate(new ClassFileImporter().importClasses(HarnessConfig.class)).hasViolation()).isFalse();
	}
}
