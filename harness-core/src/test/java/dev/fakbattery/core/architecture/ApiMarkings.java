package dev.fakbattery.core.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;

import org.apiguardian.api.API;

/**
 * The rule that every public top-level type of a package tree says how far it may be relied on: {@code @API(status =
 * STABLE | EXPERIMENTAL | INTERNAL, since = ...)}. harness-core checks its own packages with it, harness-api its own;
 * each also proves the rule fails on a public type without the marking, so it cannot pass vacuously.
 */
public final class ApiMarkings {

	private ApiMarkings() {
	}

	/** Every public top-level type under {@code rootPackage} and its subpackages carries @API. */
	public static ArchRule everyPublicTypeMarked(String rootPackage) {
		return classes().that()
				.resideInAPackage(rootPackage + "..")
				.and()
				.arePublic()
				.and()
				.areTopLevelClasses()
				.and()
				.doNotHaveSimpleName("package-info")
				.should()
				.beAnnotatedWith(API.class)
				.because("a public type says whether a rung author may rely on it (STABLE, EXPERIMENTAL) or it is public "
						+ "only for another module of this build (INTERNAL)");
	}

	/** Checks the rule on the main classes of {@code rootPackage}, of which there must be at least {@code atLeast}. */
	public static void checkMainClasses(String rootPackage, int atLeast) {
		JavaClasses main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
				.importPackages(rootPackage);
		assertThat(main).as(rootPackage + " main classes imported").hasSizeGreaterThanOrEqualTo(atLeast);
		everyPublicTypeMarked(rootPackage).check(main);
	}

	/** Asserts the rule of {@code rootPackage} names {@code unmarked} as a violation and passes {@code marked}. */
	public static void assertRuleCatches(String rootPackage, Class<?> unmarked, Class<?> marked) {
		ArchRule rule = everyPublicTypeMarked(rootPackage);
		assertThat(rule.evaluate(new ClassFileImporter().importClasses(unmarked)).getFailureReport().getDetails())
				.anyMatch(d -> d.contains(unmarked.getName()) && d.contains("is not annotated with @API"));
		assertThat(rule.evaluate(new ClassFileImporter().importClasses(marked)).hasViolation()).as(marked.getName()).isFalse();
	}
}
