import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "**/dist/**",
      "packages/widget/lib/**",
      "**/node_modules/**",
      "**/data/**",
      "test-results/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
      parserOptions: {
        projectService: {
          // Config files no tsconfig includes, checked with the default options.
          allowDefaultProject: ["vitest.config.ts", "scripts/*.ts"],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": "error",
      // An async function without await is how this code returns a promise (Fastify handlers,
      // fakes); a promise left unhandled is what no-floating-promises and no-misused-promises catch.
      "@typescript-eslint/require-await": "off",
      // `KnownName | string` documents the known values of an open wire field, and
      // `TimerHandle | undefined` (an opaque handle) says when there is none.
      "@typescript-eslint/no-redundant-type-constituents": "off",
      // Our objects of functions are closures, never classes reading `this`; a method
      // signature in their interfaces is notation, so passing one on is safe.
      "@typescript-eslint/unbound-method": "off",
    },
  },
  {
    // Tests read untyped JSON from responses and frames, and query the DOM with `as`; the
    // type-checked rules about `any` and assertions would only add casts there.
    files: ["**/*.test.ts", "**/*.test.tsx", "e2e/**", "**/test/**", "**/test-support/**"],
    rules: {
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unnecessary-type-assertion": "off",
      "@typescript-eslint/no-base-to-string": "off",
    },
  },
  {
    // The client fails as amazon-connect-chatjs does, with the plain objects its users' code
    // reads (`{ type, message, statusCode }`, `{ _debug, connectSuccess }`), and so do the fakes
    // of it.
    files: ["packages/chat-client/src/**", "packages/widget/src/test-support/chat-session.ts"],
    rules: {
      "@typescript-eslint/only-throw-error": "off",
      "@typescript-eslint/prefer-promise-reject-errors": "off",
    },
  },
  {
    files: ["**/*.tsx", "packages/widget/src/**/*.ts", "packages/agent-console/src/**/*.ts"],
    ...reactHooks.configs.flat["recommended-latest"],
  },
  {
    files: ["**/*.js", "**/*.mjs", "packages/chat-client/vite*.config.ts", "scripts/*.ts"],
    ...tseslint.configs.disableTypeChecked,
  },
);
