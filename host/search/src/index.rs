//! [`LocalIndex`]: a BM25 index of a corpus, built with tantivy. Passages are analysed with
//! English stop words removed and words stemmed, so a question phrased as a question finds a
//! passage phrased as a statement; the query is the query's words, any of which may match, ranked
//! by BM25 (tantivy's defaults, k1 = 1.2 and b = 0.75).

use crate::corpus::Passage;
use geode_runtime::{Error, Result};
use std::path::Path;
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
use tantivy::schema::{
    Field, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing, TextOptions, Value,
};
use tantivy::tokenizer::{
    Language, LowerCaser, RemoveLongFilter, SimpleTokenizer, Stemmer, StopWordFilter, TextAnalyzer,
};
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, TantivyDocument, Term};

/// The name the passage analyser is registered under in every index.
const ANALYZER: &str = "geode_en";
/// The indexing memory budget (tantivy splits it between its indexing threads).
const WRITER_BUDGET_BYTES: usize = 128 << 20;

/// One passage a query found, with its BM25 score.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// The passage's id in the corpus.
    pub id: String,
    /// Title on the first line, then the text.
    pub contents: String,
    /// The BM25 score.
    pub score: f32,
}

/// A searchable BM25 index of one corpus (cheap to share: searches take `&self`).
pub struct LocalIndex {
    index: Index,
    reader: IndexReader,
    id: Field,
    contents: Field,
    passages: u64,
    source: String,
}

impl std::fmt::Debug for LocalIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalIndex")
            .field("source", &self.source)
            .field("passages", &self.passages)
            .finish()
    }
}

fn analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .filter(StopWordFilter::new(Language::English).expect("tantivy ships English stop words"))
        .filter(Stemmer::new(Language::English))
        .build()
}

fn schema() -> Schema {
    let mut builder = Schema::builder();
    builder.add_text_field("id", STRING | STORED);
    let indexing = TextFieldIndexing::default()
        .set_tokenizer(ANALYZER)
        .set_index_option(IndexRecordOption::WithFreqs);
    let text = TextOptions::default()
        .set_indexing_options(indexing)
        .set_stored();
    builder.add_text_field("contents", text);
    builder.build()
}

fn failed(what: String) -> impl FnOnce(tantivy::TantivyError) -> Error {
    move |e| Error::Internal(format!("{what}: {e}"))
}

/// Adds every passage to a new index in `index` and commits it.
fn fill(
    index: &Index,
    passages: impl Iterator<Item = Result<Passage>>,
    source: &str,
) -> Result<()> {
    index.tokenizers().register(ANALYZER, analyzer());
    let schema = index.schema();
    let id = schema.get_field("id").expect("schema has id");
    let contents = schema.get_field("contents").expect("schema has contents");
    let mut writer: IndexWriter = index
        .writer(WRITER_BUDGET_BYTES)
        .map_err(failed(format!("indexing {source}")))?;
    let mut count = 0u64;
    for passage in passages {
        let passage = passage?;
        let mut doc = TantivyDocument::default();
        doc.add_text(id, &passage.id);
        doc.add_text(contents, &passage.contents);
        writer
            .add_document(doc)
            .map_err(failed(format!("indexing {source}")))?;
        count += 1;
    }
    if count == 0 {
        return Err(Error::InvalidArgument(format!(
            "search corpus {source} holds no passages"
        )));
    }
    writer
        .commit()
        .map_err(failed(format!("indexing {source}")))?;
    writer
        .wait_merging_threads()
        .map_err(failed(format!("indexing {source}")))
}

impl LocalIndex {
    /// Builds an index of `passages` in the empty directory `dir`; open it with
    /// [`open`](Self::open). `source` names the corpus in messages.
    pub fn build_in(
        dir: &Path,
        passages: impl Iterator<Item = Result<Passage>>,
        source: &str,
    ) -> Result<()> {
        let index = Index::create_in_dir(dir, schema()).map_err(failed(format!(
            "creating an index of {source} in {}",
            dir.display()
        )))?;
        fill(&index, passages, source)
    }

    /// Builds an index of `passages` in memory (when no directory can hold it).
    pub fn build_in_memory(
        passages: impl Iterator<Item = Result<Passage>>,
        source: &str,
    ) -> Result<Self> {
        let index = Index::create_in_ram(schema());
        fill(&index, passages, source)?;
        Self::from_index(index, source)
    }

    /// Opens an index [`build_in`](Self::build_in) wrote to `dir`.
    pub fn open(dir: &Path, source: &str) -> Result<Self> {
        let index = Index::open_in_dir(dir).map_err(failed(format!(
            "opening the index of {source} in {}",
            dir.display()
        )))?;
        Self::from_index(index, source)
    }

    fn from_index(index: Index, source: &str) -> Result<Self> {
        index.tokenizers().register(ANALYZER, analyzer());
        let schema = index.schema();
        let field = |name: &str| {
            schema.get_field(name).map_err(|_| {
                Error::Internal(format!(
                    "the index of {source} has no `{name}` field (not built by geode)"
                ))
            })
        };
        let (id, contents) = (field("id")?, field("contents")?);
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()
            .map_err(failed(format!("reading the index of {source}")))?;
        let passages = reader.searcher().num_docs();
        Ok(LocalIndex {
            index,
            reader,
            id,
            contents,
            passages,
            source: source.to_owned(),
        })
    }

    /// How many passages the index holds.
    pub fn len(&self) -> u64 {
        self.passages
    }

    /// Whether the index holds no passage (never true for an index geode built).
    pub fn is_empty(&self) -> bool {
        self.passages == 0
    }

    /// The corpus the index was built from, as messages name it.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The `topk` best passages for `query`, best first (equal scores in corpus order). A query
    /// with no searchable word (only stop words or punctuation) finds nothing.
    pub fn search(&self, query: &str, topk: usize) -> Result<Vec<Hit>> {
        let query = self.query(query);
        if topk == 0 {
            return Ok(Vec::new());
        }
        let Some(query) = query else {
            return Ok(Vec::new());
        };
        let searcher = self.reader.searcher();
        let top = searcher
            .search(&query, &TopDocs::with_limit(topk).order_by_score())
            .map_err(failed(format!("searching {}", self.source)))?;
        top.into_iter()
            .map(|(score, address)| {
                let doc: TantivyDocument = searcher
                    .doc(address)
                    .map_err(failed(format!("reading a passage of {}", self.source)))?;
                let text = |field| doc.get_first(field).and_then(|v| v.as_str()).unwrap_or("");
                Ok(Hit {
                    id: text(self.id).to_owned(),
                    contents: text(self.contents).to_owned(),
                    score,
                })
            })
            .collect()
    }

    /// Any of the query's analysed words, each once.
    fn query(&self, text: &str) -> Option<BooleanQuery> {
        let mut analyzer = self
            .index
            .tokenizers()
            .get(ANALYZER)
            .expect("analyser registered on open");
        let mut words = Vec::new();
        analyzer.token_stream(text).process(&mut |token| {
            if !words.contains(&token.text) {
                words.push(token.text.clone());
            }
        });
        if words.is_empty() {
            return None;
        }
        let clauses = words
            .iter()
            .map(|word| {
                let term = Term::from_field_text(self.contents, word);
                let query: Box<dyn Query> =
                    Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs));
                (Occur::Should, query)
            })
            .collect();
        Some(BooleanQuery::new(clauses))
    }
}
