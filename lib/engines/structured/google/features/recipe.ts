/** Recipe: a dish with its image, times, ratings and ingredients. */
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { fits, KIND_HINT, oneOf, preview, recommended, required, valuesAt } from "../rule_kit.ts";

export const recipe: GoogleFeature = {
  name: "Recipe",
  status: "supported",
  since: null,
  url: `${SD_DOCS}recipe`,
  checked: "2026-11-26",
  rules: [{
    nodes: "a Recipe",
    types: ["Recipe"],
    checks: [
      required("name", "the dish's name"),
      required("image", "a photo of the finished dish", "url"),
      recommended("author", "who created it, a Person or Organization"),
      recommended("datePublished", "when it was published", "date"),
      recommended("description", "a short summary"),
      recommended("recipeIngredient", "one ingredient per entry"),
      recommended("recipeInstructions", "the steps, as HowToStep entries"),
      recommended("recipeYield", 'servings, e.g. "4"'),
      oneOf("warning", ["totalTime", "cookTime"], KIND_HINT.duration),
      (n, out) => {
        for (const p of ["totalTime", "cookTime", "prepTime"]) {
          const bad = valuesAt(n, p).find((v) => !fits("duration", v, n));
          if (bad !== undefined) {
            out.push({
              severity: "warning",
              property: p,
              feature: "",
              message: `"${p}" should be ${KIND_HINT.duration}; found ${preview(bad)}.`,
            });
          }
        }
      },
      recommended("keywords", "e.g. occasion or season"),
      recommended("recipeCategory", 'e.g. "dessert"'),
      recommended("recipeCuisine", 'e.g. "Italian"'),
      recommended("nutrition.calories", 'e.g. "270 calories"'),
    ],
  }],
  generator: { primary: ["Recipe"] },
  complete: [{
    "@type": "Recipe",
    name: "Cinnamon buns",
    image: "https://example.com/photos/buns.jpg",
    author: { "@type": "Person", name: "Anna Reid" },
    datePublished: "2026-10-12",
    description: "Soft buns with cinnamon butter.",
    recipeIngredient: ["500 g flour", "50 g sugar"],
    recipeInstructions: [{ "@type": "HowToStep", text: "Knead the dough." }],
    recipeYield: "12",
    totalTime: "PT2H",
    keywords: "baking",
    recipeCategory: "Pastry",
    recipeCuisine: "Swedish",
    nutrition: { "@type": "NutritionInformation", calories: "270 calories" },
  }],
};
