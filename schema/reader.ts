import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type * as M from "ts-morph";
import { Node, Project, SyntaxKind, ts } from "./ts-morph.js";
import { McpGenError } from "./diagnostics.js";
import { parseDoc } from "./jsdoc.js";
import { mergeDeclarations } from "./merge.js";
import { checkBracketNesting, checkTypeNesting, stackOverflowError } from "./nesting.js";
import {
  checkSchemaWithTsc,
  MINI_LIB,
  MINI_LIB_PATH,
  SCHEMA_COMPILER_OPTIONS,
} from "./tsc-check.js";
import type {
  Declaration,
  Doc,
  KeywordName,
  ObjectMembers,
  Property,
  SchemaModel,
  SourceLocation,
  TypeExpr,
} from "./model.js";

const KEYWORDS: Partial<Record<M.SyntaxKind, KeywordName>> = {
  [SyntaxKind.StringKeyword]: "string",
  [SyntaxKind.NumberKeyword]: "number",
  [SyntaxKind.BooleanKeyword]: "boolean",
  [SyntaxKind.NullKeyword]: "null",
  [SyntaxKind.UndefinedKeyword]: "undefined",
  [SyntaxKind.UnknownKeyword]: "unknown",
  [SyntaxKind.AnyKeyword]: "any",
  [SyntaxKind.NeverKeyword]: "never",
  [SyntaxKind.ObjectKeyword]: "object",
};

/** Reads a schema.ts file into a SchemaModel. */
export function readSchemaFile(file: string): SchemaModel {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    throw new McpGenError(
      "spec-not-found",
      `cannot read ${file}: ${e.code ?? ""}${e.code ? ": " : ""}${e.message.replace(/^E[A-Z]+: /, "")}`,
    );
  }
  return readSchemaText(file, text);
}

/**
 * Reads schema source text. The model is built from syntax, so every construct is handled
 * explicitly: anything unknown is an error, never a guess. tsc then checks the file, so a
 * schema tsc rejects fails with tsc's own location and message.
 */
export function readSchemaText(file: string, text: string): SchemaModel {
  try {
    return readChecked(file, text);
  } catch (error) {
    throw stackOverflowError(error, file, "reading the schema");
  }
}

function readChecked(file: string, text: string): SchemaModel {
  checkBracketNesting(file, text);
  const project = new Project({
    useInMemoryFileSystem: true,
    skipLoadingLibFiles: true,
    compilerOptions: SCHEMA_COMPILER_OPTIONS,
  });
  const sourceFile = project.createSourceFile("/schema.ts", text);
  project.createSourceFile(MINI_LIB_PATH, MINI_LIB);
  const reader = new SchemaReader(file, sourceFile);
  reader.checkSyntax(project);
  checkTypeNesting(sourceFile.compilerNode, (pos) => reader.position(pos));
  // Constructs mcp-gen does not support are named as such before tsc would (for a lib
  // generic such as Partial) complain about them in its own words.
  const read = reader.readDeclarations();
  checkSchemaWithTsc(project, sourceFile, (pos) => reader.position(pos));
  const { declarations, byName } = mergeDeclarations(read);
  checkReferences(declarations, byName);
  return {
    file,
    sha256: createHash("sha256").update(text).digest("hex").slice(0, 12),
    declarations,
    byName,
  };
}

class SchemaReader {
  constructor(
    private readonly file: string,
    private readonly sourceFile: M.SourceFile,
  ) {}

  // The compiler's cached line map: ts-morph's getLineAndColumnAtPos rescans the text each call.
  position(pos: number): SourceLocation {
    const { line, character } = ts.getLineAndCharacterOfPosition(this.sourceFile.compilerNode, pos);
    return { file: this.file, line: line + 1, column: character + 1 };
  }

  loc(node: M.Node): SourceLocation {
    return this.position(node.getStart());
  }

  unsupported(node: M.Node, what: string): McpGenError {
    const snippet = node.getText().replace(/\s+/g, " ").slice(0, 60);
    return new McpGenError(
      "unsupported-construct",
      `unsupported construct: ${what} (\`${snippet}\`)`,
      this.loc(node),
    );
  }

  checkSyntax(project: M.Project): void {
    const program = project.getProgram().compilerObject;
    const [first] = program.getSyntacticDiagnostics(this.sourceFile.compilerNode);
    if (!first) return;
    const message = ts.flattenDiagnosticMessageText(first.messageText, " ");
    throw new McpGenError(
      "syntax-error",
      `syntax error: ${message}`,
      this.position(first.start ?? 0),
    );
  }

  readDeclarations(): Declaration[] {
    const out: Declaration[] = [];
    for (const statement of this.sourceFile.getStatements()) {
      if (Node.isInterfaceDeclaration(statement)) {
        if (statement.getTypeParameters().length > 0)
          throw this.unsupported(statement, "generic interface");
        out.push({
          kind: "interface",
          name: compact(statement.getName()),
          exported: statement.isExported(),
          doc: this.doc(statement),
          loc: this.loc(statement.getNameNode()),
          extends: statement.getExtends().map((h) => this.heritage(h)),
          members: this.members(statement),
        });
      } else if (Node.isTypeAliasDeclaration(statement)) {
        if (statement.getTypeParameters().length > 0)
          throw this.unsupported(statement, "generic type alias");
        out.push({
          kind: "alias",
          name: compact(statement.getName()),
          exported: statement.isExported(),
          doc: this.doc(statement),
          loc: this.loc(statement.getNameNode()),
          type: this.type(statement.getTypeNodeOrThrow()),
        });
      } else if (Node.isVariableStatement(statement)) {
        for (const decl of statement.getDeclarations()) {
          out.push({
            kind: "const",
            name: compact(decl.getName()),
            exported: statement.isExported(),
            doc: this.doc(statement),
            loc: this.loc(decl.getNameNode()),
            value: this.constValue(decl.getInitializer(), decl),
          });
        }
      } else if (!Node.isEmptyStatement(statement)) {
        throw this.unsupported(statement, `statement of kind ${statement.getKindName()}`);
      }
    }
    return out;
  }

  doc(node: M.Node): Doc {
    const docs = Node.isJSDocable(node) ? node.getJsDocs() : [];
    const last = docs[docs.length - 1];
    return last ? parseDoc(compact(last.getText())) : { text: "", tags: [] };
  }

  constValue(init: M.Node | undefined, decl: M.Node): string | number | boolean {
    let node = init;
    while (node && (Node.isAsExpression(node) || Node.isParenthesizedExpression(node))) {
      node = node.getExpression();
    }
    if (node && (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)))
      return compact(node.getLiteralValue());
    if (node && Node.isNumericLiteral(node)) return node.getLiteralValue();
    if (node && Node.isTrueLiteral(node)) return true;
    if (node && Node.isFalseLiteral(node)) return false;
    if (
      node &&
      Node.isPrefixUnaryExpression(node) &&
      node.getOperatorToken() === SyntaxKind.MinusToken
    ) {
      const operand = node.getOperand();
      if (Node.isNumericLiteral(operand)) return -operand.getLiteralValue();
    }
    throw this.unsupported(
      init ?? decl,
      "const whose value is not a string, number or boolean literal",
    );
  }

  heritage(h: M.ExpressionWithTypeArguments): TypeExpr {
    const name = compact(h.getExpression().getText());
    const args = h.getTypeArguments();
    if (name === "Omit") return this.omit(h, args);
    if (args.length > 0 || !Node.isIdentifier(h.getExpression()))
      throw this.unsupported(h, "extends clause other than a name or Omit<...>");
    return { kind: "ref", name, loc: this.loc(h) };
  }

  omit(node: M.Node, args: M.TypeNode[]): TypeExpr {
    const [base, keys] = args;
    if (!base || !keys || args.length !== 2)
      throw this.unsupported(node, "Omit without exactly two type arguments");
    const keyTypes = Node.isUnionTypeNode(keys) ? keys.getTypeNodes() : [keys];
    const names = keyTypes.map((k) => {
      const literal = Node.isLiteralTypeNode(k) ? k.getLiteral() : undefined;
      if (!literal || !Node.isStringLiteral(literal))
        throw this.unsupported(k, "Omit key that is not a string literal");
      return compact(literal.getLiteralValue());
    });
    return { kind: "omit", base: this.type(base), keys: names, loc: this.loc(node) };
  }

  members(node: M.InterfaceDeclaration | M.TypeLiteralNode): ObjectMembers {
    const properties: Property[] = [];
    const out: ObjectMembers = { properties };
    for (const member of node.getMembers()) {
      if (Node.isPropertySignature(member)) {
        const nameNode = member.getNameNode();
        if (!Node.isIdentifier(nameNode) && !Node.isStringLiteral(nameNode)) {
          throw this.unsupported(member, "computed or numeric property name");
        }
        const typeNode = member.getTypeNode();
        if (!typeNode) throw this.unsupported(member, "property without a type annotation");
        if (member.isReadonly()) throw this.unsupported(member, "readonly property");
        properties.push({
          name: compact(
            Node.isStringLiteral(nameNode) ? nameNode.getLiteralValue() : nameNode.getText(),
          ),
          optional: member.hasQuestionToken(),
          type: this.type(typeNode),
          doc: this.doc(member),
          loc: this.loc(member),
        });
      } else if (Node.isIndexSignatureDeclaration(member)) {
        if (out.indexSignature) throw this.unsupported(member, "second index signature");
        const keyType = member.getKeyTypeNode().getKind();
        if (keyType !== SyntaxKind.StringKeyword && keyType !== SyntaxKind.NumberKeyword) {
          throw this.unsupported(member, "index signature keyed by other than string or number");
        }
        out.indexSignature = {
          keyName: compact(member.getKeyName()),
          keyType: keyType === SyntaxKind.StringKeyword ? "string" : "number",
          type: this.type(member.getReturnTypeNodeOrThrow()),
          doc: this.doc(member),
          loc: this.loc(member),
        };
      } else {
        throw this.unsupported(member, `${member.getKindName()} member`);
      }
    }
    return out;
  }

  type(node: M.TypeNode): TypeExpr {
    const loc = this.loc(node);
    const keyword = KEYWORDS[node.getKind()];
    if (keyword) return { kind: "keyword", name: keyword, loc };
    if (Node.isParenthesizedTypeNode(node)) return this.type(node.getTypeNode());
    if (Node.isUnionTypeNode(node))
      return { kind: "union", members: node.getTypeNodes().map((t) => this.type(t)), loc };
    if (Node.isIntersectionTypeNode(node)) {
      return { kind: "intersection", members: node.getTypeNodes().map((t) => this.type(t)), loc };
    }
    if (Node.isArrayTypeNode(node))
      return { kind: "array", element: this.type(node.getElementTypeNode()), loc };
    if (Node.isTypeLiteral(node)) return { kind: "object", members: this.members(node), loc };
    if (Node.isLiteralTypeNode(node)) return this.literal(node);
    if (Node.isTypeQuery(node)) {
      const name = node.getExprName();
      if (!Node.isIdentifier(name) || node.getTypeArguments().length > 0)
        throw this.unsupported(node, "typeof of other than a const name");
      return { kind: "typeof", name: compact(name.getText()), loc };
    }
    if (Node.isTypeReference(node)) return this.reference(node);
    throw this.unsupported(node, describeKind(node.getKind()));
  }

  literal(node: M.LiteralTypeNode): TypeExpr {
    const loc = this.loc(node);
    const literal = node.getLiteral();
    if (Node.isStringLiteral(literal) || Node.isNoSubstitutionTemplateLiteral(literal)) {
      return { kind: "literal", value: compact(literal.getLiteralValue()), loc };
    }
    if (Node.isNumericLiteral(literal))
      return { kind: "literal", value: literal.getLiteralValue(), loc };
    if (Node.isTrueLiteral(literal)) return { kind: "literal", value: true, loc };
    if (Node.isFalseLiteral(literal)) return { kind: "literal", value: false, loc };
    if (literal.getKind() === SyntaxKind.NullKeyword) return { kind: "keyword", name: "null", loc };
    if (
      Node.isPrefixUnaryExpression(literal) &&
      literal.getOperatorToken() === SyntaxKind.MinusToken
    ) {
      const operand = literal.getOperand();
      if (Node.isNumericLiteral(operand))
        return { kind: "literal", value: -operand.getLiteralValue(), loc };
    }
    throw this.unsupported(node, "literal type");
  }

  reference(node: M.TypeReferenceNode): TypeExpr {
    const loc = this.loc(node);
    const nameNode = node.getTypeName();
    if (!Node.isIdentifier(nameNode)) throw this.unsupported(node, "qualified type name");
    const name = compact(nameNode.getText());
    const args = node.getTypeArguments();
    if (args.length === 0) return { kind: "ref", name, loc };
    if (name === "Omit") return this.omit(node, args);
    const [first, second] = args;
    if (name === "Record" && first && second && args.length === 2) {
      return { kind: "record", key: this.type(first), value: this.type(second), loc };
    }
    if (name === "Array" && first && args.length === 1)
      return { kind: "array", element: this.type(first), loc };
    throw this.unsupported(node, `generic type '${name}<...>'`);
  }
}

/**
 * `text` stored one byte a character when it can be. schema.ts holds a few characters
 * beyond Latin-1 (curly quotes, dashes in docs), so V8 keeps its whole text two bytes a
 * character, and so is every name or literal cut out of it and every string built with
 * one: validators.ts, all ASCII, took 15.6 MB instead of 7.8 MB for a schema of 20 copies
 * of 2026-07-28, with its parts as large before they were joined. A Latin-1 round trip
 * copies the same characters into a one-byte string; other text is kept as it is.
 */
function compact(text: string): string {
  return /[^\x00-\xff]/.test(text) ? text : Buffer.from(text, "latin1").toString("latin1");
}

function describeKind(kind: M.SyntaxKind): string {
  const names: Partial<Record<M.SyntaxKind, string>> = {
    [SyntaxKind.TupleType]: "tuple type",
    [SyntaxKind.ConditionalType]: "conditional type",
    [SyntaxKind.MappedType]: "mapped type",
    [SyntaxKind.TypeOperator]: "type operator (keyof, readonly or unique)",
    [SyntaxKind.IndexedAccessType]: "indexed access type",
    [SyntaxKind.TemplateLiteralType]: "template literal type",
    [SyntaxKind.FunctionType]: "function type",
    [SyntaxKind.ConstructorType]: "constructor type",
    [SyntaxKind.BigIntKeyword]: "bigint",
    [SyntaxKind.SymbolKeyword]: "symbol",
    [SyntaxKind.VoidKeyword]: "void",
    [SyntaxKind.ThisType]: "this type",
    [SyntaxKind.ImportType]: "import type",
    [SyntaxKind.TypePredicate]: "type predicate",
    [SyntaxKind.InferType]: "infer type",
  };
  return names[kind] ?? SyntaxKind[kind];
}

/** Every `ref` and `typeof` must name a declaration of the right kind. */
function checkReferences(
  declarations: Declaration[],
  byName: ReadonlyMap<string, Declaration>,
): void {
  const visit = (t: TypeExpr): void => {
    switch (t.kind) {
      case "ref": {
        const target = byName.get(t.name);
        if (!target)
          throw new McpGenError(
            "unknown-type",
            `unknown type '${t.name}' (not declared in the schema)`,
            t.loc,
          );
        if (target.kind === "const")
          throw new McpGenError(
            "unknown-type",
            `'${t.name}' is a const; write 'typeof ${t.name}'`,
            t.loc,
          );
        return;
      }
      case "typeof": {
        const target = byName.get(t.name);
        if (target?.kind !== "const")
          throw new McpGenError(
            "unknown-type",
            `'typeof ${t.name}' does not name a const of the schema`,
            t.loc,
          );
        return;
      }
      case "array":
        return visit(t.element);
      case "object":
        return visitMembers(t.members);
      case "union":
      case "intersection":
        return t.members.forEach(visit);
      case "omit":
        return visit(t.base);
      case "record":
        visit(t.key);
        return visit(t.value);
      default:
        return;
    }
  };
  const visitMembers = (m: ObjectMembers): void => {
    m.properties.forEach((p) => visit(p.type));
    if (m.indexSignature) visit(m.indexSignature.type);
  };
  for (const d of declarations) {
    if (d.kind === "interface") {
      d.extends.forEach(visit);
      visitMembers(d.members);
    } else if (d.kind === "alias") visit(d.type);
  }
}
