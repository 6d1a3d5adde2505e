# frozen_string_literal: true

# A modulesync configuration (config_defaults.yml, moduleroot/, modulesync.yml, managed_modules.yml) run over
# one module the way `msync update` renders it, for the worker (worker.rb) in place of PDK's Session.
#
# The code follows voxpupuli/modulesync's lib/modulesync.rb (update, manage_module, manage_file, local_file,
# find_template_files), lib/modulesync/settings.rb (Settings) and renderer.rb (ForgeModuleFile), which
# differ from PDK's V1 renderer in every detail that shows in the output:
# - only `moduleroot/**/*.erb` are templates (other files are ignored; there is no moduleroot_init/);
# - settings are shallow merges, no deep merge and no `common`: `:global` of config_defaults.yml, the
#   file's key there, `:global` of the module's .sync.yml, the file's key there, then `:puppet_module`,
#   `:git_base` and `:namespace` (Symbol keys);
# - files to act on are the templates and every key of both files; `unmanaged` on a file or any of its
#   parent directories leaves it alone, `delete` removes it, and a key with neither and no template makes
#   msync fail;
# - the ERB runs as a method of ForgeModuleFile, seeing `@configs` and `@metadata` (module_name, namespace,
#   workdir, target_file) only; the output is written byte for byte (no newline added) with the
#   template file's mode;
# - YAML is read with `YAML.load_file(aliases: true)`: Symbols load (`:global`), dates and objects do not
#   (Psych 4's `load`, written here as the `safe_load` it is so that older Psych reads it alike).

require 'pathname'

module PantographV1
  # What msync defaults to when modulesync.yml does not say (lib/modulesync/cli.rb).
  MSYNC_DEFAULTS = { git_base: 'git@github.com:', namespace: 'puppetlabs', managed_modules_conf: 'managed_modules.yml' }.freeze
  GLOBAL_DEFAULTS_KEY = :global

  # A YAML file of the configuration that cannot be read at all: msync stops on it.
  class ConfigFileError < StandardError
    attr_reader :label, :line, :column

    def initialize(label, message, line, column)
      super(message)
      @label = label
      @line = line
      @column = column
    end

    def to_h
      { 'class' => 'Psych::SyntaxError', 'message' => message, 'file' => @label, 'line' => @line, 'column' => @column, 'nodes' => [] }
    end
  end

  # A file to manage without a template: msync's File.read of `<path>.erb` raises Errno::ENOENT.
  class NoTemplate < Errno::ENOENT; end

  # The object a modulesync template is a method of (modulesync's Renderer::ForgeModuleFile).
  class ForgeModuleFile
    def initialize(configs = {}, metadata = {})
      @configs = configs
      @metadata = metadata
    end
  end

  # The worker's state for one modulesync configuration and one module.
  class ModulesyncSession
    def initialize(request)
      @root = File.expand_path(request.fetch('root'))
      @module_dir = File.expand_path(request.fetch('moduleDir'))
      @sync_text = request['syncText']
      # `namespace/name` as managed_modules.yml may give it (the fleet does), or the module's directory name.
      given = request.fetch('moduleName')
      @module_name = given.split('/').last
      @given_namespace = given.include?('/') ? given.split('/')[0...-1].join('/') : nil
      @files = {}
      @warnings = []
    end

    attr_reader :warnings

    def plan
      options = MSYNC_DEFAULTS.merge(symbolize(load_file('modulesync.yml')))
      @defaults = load_file('config_defaults.yml')
      @module_configs = load_sync
      namespace = namespace_of(options)
      additional = { puppet_module: @module_name, git_base: options[:git_base], namespace: namespace }
      @metadata_base = { module_name: @module_name, namespace: namespace, workdir: @module_dir }
      @settings = Settings.new(hash_at(@defaults, GLOBAL_DEFAULTS_KEY), @defaults,
                               hash_at(@module_configs, GLOBAL_DEFAULTS_KEY), @module_configs, additional)
      templates = template_files
      names = (templates | @defaults.keys | @module_configs.keys).reject { |f| f == GLOBAL_DEFAULTS_KEY }
      names.map { |name| entry_for(name) }
    end

    def source_of(dest)
      @files.dig(dest, 0)
    end

    def render(dest)
      file, configs = @files.fetch(dest) { raise ArgumentError, "no template file for #{dest}" }
      erb = ERB.new(File.read(file), trim_mode: '-')
      erb.filename = file
      # As modulesync: the template becomes ForgeModuleFile#render, so an error's backtrace names its file.
      klass = Class.new(ForgeModuleFile)
      erb.def_method(klass, 'render()', file)
      metadata = @metadata_base.merge(target_file: File.join(@module_dir, dest))
      klass.new(configs, metadata).render.to_s
    end

    private

    def entry_for(name)
      entry = { 'path' => name.to_s, 'source' => "moduleroot/#{name}.erb", 'init' => false }
      unless @settings.managed?(name)
        entry['status'] = 'unmanage'
        return entry
      end
      configs = @settings.build_file_configs(name)
      if configs['delete']
        entry['status'] = 'delete'
        return entry
      end
      file = local_file(name)
      unless File.file?(file)
        raise NoTemplate, "#{name} is configured, but moduleroot/ has no template for it (#{name}.erb); " \
                          'msync stops on this module when it renders it'
      end
      entry['source'] = file.delete_prefix("#{@root}/")
      entry['status'] = 'manage'
      entry['executable'] = File.stat(file).mode.anybits?(0o111)
      @files[name.to_s] = [file, configs]
      entry
    rescue StandardError, ScriptError, SystemStackError => e
      entry['status'] = 'error'
      entry['error'] = PantographV1.describe(e, nil).merge('at' => key_position(name), 'noTemplate' => e.is_a?(NoTemplate))
      entry['error']['class'] = 'Errno::ENOENT' if e.is_a?(NoTemplate)
      entry
    end

    # modulesync's local_file: `<path>.erb`, or the bare path when only it exists (msync warns).
    def local_file(name)
      path = File.join(@root, 'moduleroot', name.to_s)
      !File.exist?("#{path}.erb") && File.exist?(path) ? path : "#{path}.erb"
    end

    # modulesync's find_template_files: files under moduleroot/ whose path matches /.erb$/, without `.erb`.
    def template_files
      base = File.join(@root, 'moduleroot')
      return [] unless File.directory?(base)

      Dir.glob(File.join(base, '**', '*'), File::FNM_DOTMATCH).sort
         .select { |p| p =~ /.erb$/ && !File.directory?(p) }
         .map { |p| p.chomp('.erb').delete_prefix("#{base}/") }
    end

    # The module's namespace, as msync finds it: `namespace/name` in managed_modules.yml, else the module's
    # `namespace` option there, else modulesync.yml's (or msync's default).
    def namespace_of(options)
      return @given_namespace if @given_namespace

      modules = load_file(options[:managed_modules_conf].to_s, default: nil)
      entries = modules.is_a?(Hash) ? modules.to_a : Array(modules).map { |m| [m, nil] }
      entries.each do |given, module_options|
        next unless given.is_a?(String) && given.split('/').last == @module_name

        return given.split('/')[0...-1].join('/') if given.include?('/')

        own = module_options.is_a?(Hash) ? symbolize(module_options)[:namespace] : nil
        return own || options[:namespace]
      end
      options[:namespace]
    end

    def load_sync
      return {} if @sync_text.nil?

      @sync_source = @sync_text
      data = YAML.safe_load(@sync_text, permitted_classes: [Symbol], permitted_symbols: [], aliases: true) || {}
      raise SyncError.new('TypeError', ".sync.yml is #{data.class}, not a mapping of files to settings", []) unless data.is_a?(Hash)

      data
    rescue Psych::SyntaxError => e
      raise ConfigFileError.new('.sync.yml', "#{e.problem} #{e.context}".strip, e.line, e.column)
    rescue Psych::DisallowedClass, Psych::BadAlias => e
      raise SyncError.new(e.class.name, e.message, SyncProblem.locate(@sync_text, e, symbols: true))
    end

    # A YAML file of the configuration, as msync's Util.parse_config reads it: missing is `default`.
    def load_file(label, default: {})
      path = File.join(@root, label)
      return default unless File.file?(path)

      text = File.read(path)
      (@texts ||= {})[label] = text
      data = YAML.safe_load(text, permitted_classes: [Symbol], permitted_symbols: [], aliases: true) || {}
      data.is_a?(Hash) || default.nil? ? data : {}
    rescue Psych::SyntaxError => e
      raise ConfigFileError.new(label, "#{e.problem} #{e.context}".strip, e.line, e.column)
    rescue Psych::DisallowedClass, Psych::BadAlias => e
      raise SyncError.new(e.class.name, e.message, SyncProblem.locate(text, e, symbols: true), label)
    end

    def hash_at(hash, key)
      hash[key] || {}
    end

    def symbolize(hash)
      hash.is_a?(Hash) ? hash.to_h { |k, v| [k.to_sym, v] } : {}
    end

    # Where a file's key is: in .sync.yml, else in config_defaults.yml (a top-level key of either).
    def key_position(name)
      [['.sync.yml', @sync_source], ['config_defaults.yml', (@texts || {})['config_defaults.yml']]].each do |label, text|
        next if text.nil?

        found = top_level_key(text, name.to_s)
        return found.merge('file' => label) if found
      end
      nil
    end

    def top_level_key(text, key)
      root = Psych.parse(text)&.root
      return nil unless root.is_a?(Psych::Nodes::Mapping)

      root.children.each_slice(2) do |k, _v|
        return { 'line' => k.start_line + 1, 'column' => k.start_column + 1 } if k.is_a?(Psych::Nodes::Scalar) && k.value == key
      end
      nil
    rescue Psych::SyntaxError
      nil
    end
  end

  # modulesync's Settings, as it is.
  class Settings
    def initialize(global_defaults, defaults, module_defaults, module_configs, additional_settings)
      @global_defaults = global_defaults
      @defaults = defaults
      @module_defaults = module_defaults
      @module_configs = module_configs
      @additional_settings = additional_settings
    end

    def lookup_config(hash, target_name)
      hash[target_name] || {}
    end

    def build_file_configs(target_name)
      file_def = lookup_config(@defaults, target_name)
      file_mc = lookup_config(@module_configs, target_name)
      @global_defaults.merge(file_def).merge(@module_defaults).merge(file_mc).merge(@additional_settings)
    end

    def managed?(target_name)
      Pathname.new(target_name).ascend do |v|
        configs = build_file_configs(v.to_s)
        return false if configs['unmanaged']
      end
      true
    end
  end
end
