import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type * as TS from "typescript";
import { ts } from "./typescript.js";
import { McpGenError } from "./diagnostics.js";
import { parseDoc } from "./jsdoc.js";
import { mergeDeclarations } from "./merge.js";
import {
  checkBracketNesting,
  checkInheritanceDepth,
  checkTypeNesting,
  stackOverflowError,
} from "./nesting.js";
import { checkSchemaWithTsc, schemaProgram } from "./tsc-check.js";
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

const SyntaxKind = ts.SyntaxKind;

const KEYWORDS: Partial<Record<TS.SyntaxKind, KeywordName>> = {
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
  const { program, sourceFile } = schemaProgram(text);
  const reader = new SchemaReader(file, sourceFile);
  reader.checkSyntax(program);
  checkTypeNesting(sourceFile, (pos) => reader.position(pos));
  // Constructs mcp-gen does not support are named as such before tsc would (for a lib
  // generic such as Partial) complain about them in its own words.
  const read = reader.readDeclarations();
  checkInheritanceDepth(read);
  checkSchemaWithTsc(program, sourceFile, (pos) => reader.position(pos));
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
    private readonly sourceFile: TS.SourceFile,
  ) {}

  position(pos: number): SourceLocation {
    const { line, character } = ts.getLineAndCharacterOfPosition(this.sourceFile, pos);
    return { file: this.file, line: line + 1, column: character + 1 };
  }

  loc(node: TS.Node): SourceLocation {
    return this.position(node.getStart(this.sourceFile));
  }

  text(node: TS.Node): string {
    return node.getText(this.sourceFile);
  }

  unsupported(node: TS.Node, what: string): McpGenError {
    const snippet = this.text(node).replace(/\s+/g, " ").slice(0, 60);
    return new McpGenError(
      "unsupported-construct",
      `unsupported construct: ${what} (\`${snippet}\`)`,
      this.loc(node),
    );
  }

  checkSyntax(program: TS.Program): void {
    const [first] = program.getSyntacticDiagnostics(this.sourceFile);
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
    for (const statement of this.sourceFile.statements) {
      if (ts.isInterfaceDeclaration(statement)) {
        if (statement.typeParameters) throw this.unsupported(statement, "generic interface");
        out.push({
          kind: "interface",
          name: compact(this.text(statement.name)),
          exported: isExported(statement),
          doc: this.doc(statement),
          loc: this.loc(statement.name),
          extends: (statement.heritageClauses ?? []).flatMap((c) =>
            c.types.map((h) => this.heritage(h)),
          ),
          members: this.members(statement.members),
        });
      } else if (ts.isTypeAliasDeclaration(statement)) {
        if (statement.typeParameters) throw this.unsupported(statement, "generic type alias");
        out.push({
          kind: "alias",
          name: compact(this.text(statement.name)),
          exported: isExported(statement),
          doc: this.doc(statement),
          loc: this.loc(statement.name),
          type: this.type(statement.type),
        });
      } else if (ts.isVariableStatement(statement)) {
        for (const decl of statement.declarationList.declarations) {
          out.push({
            kind: "const",
            name: compact(this.text(decl.name)),
            exported: isExported(statement),
            doc: this.doc(statement),
            loc: this.loc(decl.name),
            value: this.constValue(decl.initializer, decl),
          });
        }
      } else if (!ts.isEmptyStatement(statement)) {
        throw this.unsupported(statement, `statement of kind ${kindName(statement.kind)}`);
      }
    }
    return out;
  }

  /**
   * The last JSDoc comment before the node: of the comments in its leading trivia, those
   * opening with `/**` (not the empty `/**\/`), as TypeScript picks the JSDoc of a node.
   */
  doc(node: TS.Node): Doc {
    const text = this.sourceFile.text;
    const last = (ts.getLeadingCommentRanges(text, node.pos) ?? [])
      .filter((c) => text.startsWith("/**", c.pos) && text[c.pos + 3] !== "/")
      .pop();
    return last ? parseDoc(compact(text.slice(last.pos, last.end))) : { text: "", tags: [] };
  }

  constValue(init: TS.Expression | undefined, decl: TS.Node): string | number | boolean {
    let node = init;
    while (node && (ts.isAsExpression(node) || ts.isParenthesizedExpression(node))) {
      node = node.expression;
    }
    if (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)))
      return compact(node.text);
    if (node && ts.isNumericLiteral(node)) return Number(node.text);
    if (node?.kind === SyntaxKind.TrueKeyword) return true;
    if (node?.kind === SyntaxKind.FalseKeyword) return false;
    if (node && ts.isPrefixUnaryExpression(node) && node.operator === SyntaxKind.MinusToken) {
      const operand = node.operand;
      if (ts.isNumericLiteral(operand)) return -Number(operand.text);
    }
    throw this.unsupported(
      init ?? decl,
      "const whose value is not a string, number or boolean literal",
    );
  }

  heritage(h: TS.ExpressionWithTypeArguments): TypeExpr {
    const name = compact(this.text(h.expression));
    const args = h.typeArguments ?? [];
    if (name === "Omit") return this.omit(h, args);
    if (args.length > 0 || !ts.isIdentifier(h.expression))
      throw this.unsupported(h, "extends clause other than a name or Omit<...>");
    return { kind: "ref", name, loc: this.loc(h) };
  }

  omit(node: TS.Node, args: readonly TS.TypeNode[]): TypeExpr {
    const [base, keys] = args;
    if (!base || !keys || args.length !== 2)
      throw this.unsupported(node, "Omit without exactly two type arguments");
    const keyTypes = ts.isUnionTypeNode(keys) ? keys.types : [keys];
    const names = keyTypes.map((k) => {
      const literal = ts.isLiteralTypeNode(k) ? k.literal : undefined;
      if (!literal || !ts.isStringLiteral(literal))
        throw this.unsupported(k, "Omit key that is not a string literal");
      return compact(literal.text);
    });
    return { kind: "omit", base: this.type(base), keys: names, loc: this.loc(node) };
  }

  members(members: TS.NodeArray<TS.TypeElement>): ObjectMembers {
    const properties: Property[] = [];
    const out: ObjectMembers = { properties };
    for (const member of members) {
      if (ts.isPropertySignature(member)) {
        const nameNode = member.name;
        if (!ts.isIdentifier(nameNode) && !ts.isStringLiteral(nameNode)) {
          throw this.unsupported(member, "computed or numeric property name");
        }
        const typeNode = member.type;
        if (!typeNode) throw this.unsupported(member, "property without a type annotation");
        if (hasModifier(member, SyntaxKind.ReadonlyKeyword))
          throw this.unsupported(member, "readonly property");
        properties.push({
          name: compact(ts.isStringLiteral(nameNode) ? nameNode.text : this.text(nameNode)),
          optional: member.questionToken !== undefined,
          type: this.type(typeNode),
          doc: this.doc(member),
          loc: this.loc(member),
        });
      } else if (ts.isIndexSignatureDeclaration(member)) {
        if (out.indexSignature) throw this.unsupported(member, "second index signature");
        const [key] = member.parameters;
        const keyType = key?.type?.kind;
        if (keyType !== SyntaxKind.StringKeyword && keyType !== SyntaxKind.NumberKeyword) {
          throw this.unsupported(member, "index signature keyed by other than string or number");
        }
        out.indexSignature = {
          keyName: compact(this.text(key!.name)),
          keyType: keyType === SyntaxKind.StringKeyword ? "string" : "number",
          type: this.type(member.type),
          doc: this.doc(member),
          loc: this.loc(member),
        };
      } else {
        throw this.unsupported(member, `${kindName(member.kind)} member`);
      }
    }
    return out;
  }

  type(node: TS.TypeNode): TypeExpr {
    const loc = this.loc(node);
    const keyword = KEYWORDS[node.kind];
    if (keyword) return { kind: "keyword", name: keyword, loc };
    if (ts.isParenthesizedTypeNode(node)) return this.type(node.type);
    if (ts.isUnionTypeNode(node))
      return { kind: "union", members: node.types.map((t) => this.type(t)), loc };
    if (ts.isIntersectionTypeNode(node)) {
      return { kind: "intersection", members: node.types.map((t) => this.type(t)), loc };
    }
    if (ts.isArrayTypeNode(node))
      return { kind: "array", element: this.type(node.elementType), loc };
    if (ts.isTypeLiteralNode(node))
      return { kind: "object", members: this.members(node.members), loc };
    if (ts.isLiteralTypeNode(node)) return this.literal(node);
    if (ts.isTypeQueryNode(node)) {
      const name = node.exprName;
      if (!ts.isIdentifier(name) || node.typeArguments)
        throw this.unsupported(node, "typeof of other than a const name");
      return { kind: "typeof", name: compact(this.text(name)), loc };
    }
    if (ts.isTypeReferenceNode(node)) return this.reference(node);
    throw this.unsupported(node, describeKind(node.kind));
  }

  literal(node: TS.LiteralTypeNode): TypeExpr {
    const loc = this.loc(node);
    const literal = node.literal;
    if (ts.isStringLiteral(literal) || ts.isNoSubstitutionTemplateLiteral(literal)) {
      return { kind: "literal", value: compact(literal.text), loc };
    }
    if (ts.isNumericLiteral(literal)) return { kind: "literal", value: Number(literal.text), loc };
    if (literal.kind === SyntaxKind.TrueKeyword) return { kind: "literal", value: true, loc };
    if (literal.kind === SyntaxKind.FalseKeyword) return { kind: "literal", value: false, loc };
    if (literal.kind === SyntaxKind.NullKeyword) return { kind: "keyword", name: "null", loc };
    if (ts.isPrefixUnaryExpression(literal) && literal.operator === SyntaxKind.MinusToken) {
      const operand = literal.operand;
      if (ts.isNumericLiteral(operand))
        return { kind: "literal", value: -Number(operand.text), loc };
    }
    throw this.unsupported(node, "literal type");
  }

  reference(node: TS.TypeReferenceNode): TypeExpr {
    const loc = this.loc(node);
    const nameNode = node.typeName;
    if (!ts.isIdentifier(nameNode)) throw this.unsupported(node, "qualified type name");
    const name = compact(this.text(nameNode));
    const args = node.typeArguments ?? [];
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

function hasModifier(node: TS.HasModifiers, kind: TS.SyntaxKind): boolean {
  return node.modifiers?.some((m) => m.kind === kind) ?? false;
}

const isExported = (node: TS.HasModifiers) => hasModifier(node, SyntaxKind.ExportKeyword);

/** A SyntaxKind's name: its own, not an alias that marks a range (`FirstStatement`). */
function kindName(kind: TS.SyntaxKind): string {
  const names = Object.keys(SyntaxKind).filter(
    (k) => SyntaxKind[k as keyof typeof SyntaxKind] === kind,
  );
  return names.find((n) => !/^(First|Last)/.test(n)) ?? names[0] ?? String(kind);
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

function describeKind(kind: TS.SyntaxKind): string {
  const names: Partial<Record<TS.SyntaxKind, string>> = {
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
  return names[kind] ?? kindName(kind);
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
