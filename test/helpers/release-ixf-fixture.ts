/**
 * A small ETIM IXF release file (ETIM International's XML release format, ETIMIXF 3.1 layout,
 * written from its documented structure): a Header with release version and date, units,
 * features with their type, values, two groups and classes with names and synonyms in two
 * languages, class features with unit, order and values, and a class feature and a class value
 * marked deleted by their change code. `retired` makes the release a later one: class EC000042
 * has Status Deprecated and ReplacedBy EC000905, feature EF000139 a Deprecated flag, value
 * EV000190 a successor.
 */
export function etimIxfFile(
  options: {
    brokenRef?: boolean;
    root?: string;
    releaseVersion?: string;
    releaseDate?: string;
    retired?: boolean;
  } = {},
): Record<string, { content: string }> {
  const root = options.root ?? 'IXF';
  const retired = (element: string) => (options.retired ? element : '');
  const colour = options.brokenRef ? 'EV000999' : 'EV000080';
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<${root} xmlns="https://www.etim-international.com/etimixf/31">
  <Header><Version>3.1</Version><ReleaseVersion>${options.releaseVersion ?? 'DYNAMIC'}</ReleaseVersion><ReleaseDate>${options.releaseDate ?? '2026-01-02'}</ReleaseDate></Header>
  <Units>
    <Unit><Code>EU570448</Code><Translations>
      <Translation language="EN"><Description>millimetre</Description><Abbreviation>mm</Abbreviation></Translation>
      <Translation language="de-DE"><Description>Millimeter</Description><Abbreviation>mm</Abbreviation></Translation>
    </Translations></Unit>
  </Units>
  <Features>
    <Feature><Code>EF000008</Code><Type>N</Type><Translations>
      <Translation language="EN"><Description>Width</Description></Translation>
      <Translation language="de-DE"><Description>Breite</Description></Translation>
    </Translations></Feature>
    <Feature><Code>EF000007</Code><Type>Alphanumeric</Type><Translations>
      <Translation language="EN"><Description>Colour</Description></Translation>
    </Translations></Feature>
    <Feature><Code>EF000139</Code><Type>L</Type>${retired('<Deprecated>true</Deprecated>')}<Translations>
      <Translation language="EN"><Description>Halogen free</Description></Translation>
    </Translations></Feature>
  </Features>
  <Values>
    <Value><Code>EV000080</Code><Translations><Translation language="EN"><Description>Black</Description></Translation><Translation language="de-DE"><Description>Schwarz</Description></Translation></Translations></Value>
    <Value><Code>EV000190</Code>${retired('<ReplacedBy>EV000080</ReplacedBy>')}<Translations><Translation language="EN"><Description>White</Description></Translation></Translations></Value>
  </Values>
  <Groups>
    <Group><Code>EG000017</Code><Translations><Translation language="EN"><Description>Installation material</Description></Translation><Translation language="de-DE"><Description>Installationsmaterial</Description></Translation></Translations></Group><Group><Code>EG000020</Code><Translations><Translation language="EN"><Description>Cable management</Description></Translation></Translations></Group>
  </Groups>
  <Classes>
    <Class>
      <Code>EC000905</Code><Version>5</Version><Status>Published</Status><GroupCode>EG000017</GroupCode>
      <Translations>
        <Translation language="EN"><Description>Cable tie</Description><Synonyms><Synonym>zip tie</Synonym></Synonyms></Translation>
        <Translation language="de-DE"><Description>Kabelbinder</Description><Synonyms><Synonym>Kabelband</Synonym></Synonyms></Translation>
      </Translations>
      <Features>
        <Feature changeCode="Unchanged"><FeatureCode>EF000008</FeatureCode><UnitCode>EU570448</UnitCode><OrderNumber>1</OrderNumber></Feature>
        <Feature changeCode="Changed"><FeatureCode>EF000007</FeatureCode><OrderNumber>2</OrderNumber>
          <Values>
            <Value changeCode="Unchanged"><ValueCode>EV000190</ValueCode><OrderNumber>1</OrderNumber></Value>
            <Value changeCode="Added"><ValueCode>${colour}</ValueCode><OrderNumber>2</OrderNumber></Value>
            <Value changeCode="Deleted"><ValueCode>EV000080</ValueCode><OrderNumber>3</OrderNumber></Value>
          </Values>
        </Feature>
        <Feature changeCode="Deleted"><FeatureCode>EF000139</FeatureCode><OrderNumber>3</OrderNumber></Feature>
      </Features>
    </Class>
    <Class>
      <Code>EC000042</Code><Version>1</Version><Status>${options.retired ? 'Deprecated' : 'Published'}</Status>${retired('<ReplacedBy>EC000905</ReplacedBy>')}<GroupCode>EG000020</GroupCode>
      <Translations><Translation language="EN"><Description>Cable duct</Description></Translation></Translations>
      <Features><Feature changeCode="Added"><FeatureCode>EF000139</FeatureCode><OrderNumber>1</OrderNumber></Feature></Features>
    </Class>
  </Classes>
</${root}>
`;
  return { 'ETIMIXF3_1.xml': { content: xml } };
}
